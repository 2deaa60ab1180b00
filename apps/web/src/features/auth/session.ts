import type { SessionUser } from '@vertragsgenerator/domain';
import { ApiRequestError } from '@/lib/api';
import type { AuthService } from '@/lib/auth/auth-service';
import { deleteUser, saveUser, verifyUser } from '@/lib/auth/session-api';
import { markSignedOut, rememberUser, SESSION_STORAGE_KEYS, storedUserMail } from '@/lib/storage';

export type SessionCheck =
  | { state: 'valid'; user: SessionUser }
  /** No token, or the server refused it: the session is over. */
  | { state: 'invalid' }
  /**
   * The server was not reached (offline, the page unloading) or could not answer for the moment (a 5xx, too
   * many requests): nothing is known about the session.
   */
  | { state: 'unreachable' };

/**
 * The route guard's check: a fresh ID token, then the server's word that its session is valid. Only its
 * refusal (401) ends the session. No answer, a server error, too many requests, or an answer that could
 * not be read (a tab closed while it came) say nothing about it: signing out then would end every tab's
 * sign-in, which share the stored user, because one request failed.
 */
export async function verifySession(auth: AuthService): Promise<SessionCheck> {
  try {
    const token = await auth.freshIdToken();
    if (!token) return { state: 'invalid' };
    if (token.renewed) await saveUser();
    const user = await verifyUser();
    rememberUser(user);
    return { state: 'valid', user };
  } catch (error) {
    console.warn('Session check failed', error);
    return error instanceof ApiRequestError && error.status === 401
      ? { state: 'invalid' }
      : { state: 'unreachable' };
  }
}

/**
 * After the provider's popup: the server session for the new ID token, and the user it answers with; a
 * refusal forgets the sign-in (null).
 */
export async function openSession(auth: AuthService): Promise<SessionUser | null> {
  try {
    const user = await saveUser();
    rememberUser(user);
    return user;
  } catch (error) {
    console.error('saveUser failed', error);
    await endLocalSession(auth);
    return null;
  }
}

/** Forgets everything the browser keeps about the signed-in user. */
export async function endLocalSession(auth: AuthService): Promise<void> {
  localStorage.clear();
  sessionStorage.removeItem(SESSION_STORAGE_KEYS.routerHistory);
  await auth.forgetUser().catch((error: unknown) => console.error('Could not remove the OIDC user', error));
}

/**
 * Logout (docs/decisions.md#logout-ends-the-session): ends the server session, then always clears the
 * browser's state.
 * Resolves with whether the server confirmed the logout.
 */
export async function logout(auth: AuthService): Promise<boolean> {
  const email = storedUserMail();
  try {
    if (!email) return false;
    await deleteUser(email);
    return true;
  } catch (error) {
    console.error('Logout failed', error);
    return false;
  } finally {
    await endLocalSession(auth);
    markSignedOut();
  }
}
