import type { SessionUser } from '@vertragsgenerator/domain';
import { type LoaderFunction, redirect } from 'react-router';
import { endLocalSession, verifySession } from '@/features/auth/session';
import type { AuthService } from '@/lib/auth/auth-service';
import { PATHS } from '@/lib/paths';

/**
 * Loader of the layout route around every page but /login and /auth/callback. As a loader it runs before
 * the page renders, so a protected page never flashes for a user who is sent to /login.
 */
export function createRouteGuard(auth: AuthService): LoaderFunction {
  const leaving = pageUnloadWatch();
  return async ({ request }) => {
    const check = await verifySession(auth);
    if (check.state === 'valid') return admittedUser(check.user, new URL(request.url).pathname);
    // A newer navigation replaced this one (the router aborted it), or the whole page is being left
    // (reload, typed address): the next check decides. Signing out here would clear the storage the
    // next page — and every other tab — relies on, only because the user moved on mid-check.
    if (request.signal.aborted || leaving()) return null;
    // Any failure leads to /login, but only a refused session is forgotten: an unreachable
    // server (offline, or this page unloading mid-check) must not sign out every other tab as well.
    if (check.state === 'invalid') await endLocalSession(auth);
    throw redirect(PATHS.login);
  };
}

/**
 * The user the layout shows, or a redirect: without a level only Team-Operations has pages (the
 * administration); everyone else without one stays on /login with its access request, still signed in.
 */
function admittedUser(user: SessionUser, path: string): SessionUser {
  if (user.permission !== null) return user;
  if (!user.administrator) throw redirect(PATHS.login);
  if (path !== PATHS.administration) throw redirect(PATHS.administration);
  return user;
}

/**
 * Whether the page is being unloaded. `beforeunload` comes first, while this page's checks can still
 * finish and clear storage; a page that is still here a moment later stayed (the user cancelled).
 */
function pageUnloadWatch(): () => boolean {
  let leavingSince: number | null = null;
  window.addEventListener('beforeunload', () => {
    leavingSince = Date.now();
  });
  window.addEventListener('pagehide', () => {
    leavingSince = Date.now();
  });
  return () => leavingSince !== null && Date.now() - leavingSince < STAYED_AFTER_MS;
}

const STAYED_AFTER_MS = 5_000;
