/**
 * The server-side session of the signed-in user. Opened at sign-in and after every renewed token — by
 * the login page, the route guard and the Google Drive sign-in alike — and ended at logout.
 */

import { type SessionUser, sessionUserSchema } from '@vertragsgenerator/domain';
import { apiFetch, apiJson } from '@/lib/api';

/** Opens the server-side session for the current ID token and answers with the user's permission. */
export function saveUser(): Promise<SessionUser> {
  return apiJson('/backend/private/saveUser', sessionUserSchema, { method: 'POST', body: {} });
}

export function verifyUser(): Promise<SessionUser> {
  return apiJson('/backend/private/verifyUser', sessionUserSchema, { method: 'POST', body: {} });
}

/** Ends the server-side session (logout); the permission record stays (docs/decisions.md#logout-ends-the-session). */
export async function deleteUser(email: string): Promise<void> {
  await apiFetch(`/backend/private/deleteUser/${encodeURIComponent(email)}`, { method: 'POST', body: {} });
}
