import {
  type OwnAccessRequest,
  ownAccessRequestSchema,
  type SessionUser,
  sessionUserSchema,
} from '@vertragsgenerator/domain';
import { apiFetch, apiJson } from '@/lib/api';

/** Opens the server-side session for the current ID token and answers with the user's permission. */
export function saveUser(): Promise<SessionUser> {
  return apiJson('/backend/private/saveUser', sessionUserSchema, { method: 'POST', body: {} });
}

export function verifyUser(): Promise<SessionUser> {
  return apiJson('/backend/private/verifyUser', sessionUserSchema, { method: 'POST', body: {} });
}

/** Ends the server-side session (logout); the permission record stays (DESIGN §10.6). */
export async function deleteUser(email: string): Promise<void> {
  await apiFetch(`/backend/private/deleteUser/${encodeURIComponent(email)}`, { method: 'POST', body: {} });
}

/** The signed-in user's latest access request (open, granted or declined), or none. */
export function ownAccessRequest(): Promise<OwnAccessRequest> {
  return apiJson('/backend/access-requests/own', ownAccessRequestSchema);
}

/** "Zugang anfragen": answers the stored request, or the one already open. */
export function requestAccess(message: string): Promise<OwnAccessRequest> {
  return apiJson('/backend/access-requests', ownAccessRequestSchema, {
    method: 'POST',
    body: message.trim() ? { message } : {},
  });
}
