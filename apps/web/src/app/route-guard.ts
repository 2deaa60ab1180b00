import { type LoaderFunction, redirect } from 'react-router';
import type { AuthService } from '../features/auth/auth-service';
import { endLocalSession, verifySession } from '../features/auth/session';
import { PATHS } from '../lib/paths';

/**
 * Loader of the layout route around every page but /login and /auth/callback. As a loader it runs before
 * the page renders, so a protected page never flashes for a user who is sent to /login.
 */
export function createRouteGuard(auth: AuthService): LoaderFunction {
  return async ({ request }) => {
    const check = await verifySession(auth);
    if (check.state === 'valid') return null;
    // A newer navigation replaced this one (the router aborted it): that navigation's own check
    // decides. Signing out here would end a valid session because the user clicked on.
    if (request.signal.aborted) return null;
    // Any failure leads to /login (SPEC §2), but only a refused session is forgotten: an unreachable
    // server (offline, or this page unloading mid-check) must not sign out every other tab as well.
    if (check.state === 'invalid') await endLocalSession(auth);
    throw redirect(PATHS.login);
  };
}
