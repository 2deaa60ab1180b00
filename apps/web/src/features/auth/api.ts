import { queryOptions } from '@tanstack/react-query';
import { type OwnAccessRequest, ownAccessRequestSchema } from '@vertragsgenerator/domain';
import { apiJson } from '@/lib/api';

/** The signed-in user's access request as the login page shows it; a new request replaces it. */
export const ownAccessRequestQueryOptions = queryOptions({
  queryKey: ['access-request'],
  queryFn: () => ownAccessRequest(),
});

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
