import { type LoaderFunction, redirect } from 'react-router';
import type { AuthService } from '../features/auth/auth-service';
import { endLocalSession, verifySession } from '../features/auth/session';
import { PATHS } from '../lib/paths';

/**
 * Loader of the layout route around every page but /login and /auth/callback. As a loader it runs before
 * the page renders, so a protected page never flashes for a user who is sent to /login.
 */
export function createRouteGuard(auth: AuthService): LoaderFunction {
  return async () => {
    if (await verifySession(auth)) return null;
    await endLocalSession(auth);
    throw redirect(PATHS.login);
  };
}
