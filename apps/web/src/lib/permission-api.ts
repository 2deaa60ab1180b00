import { useQuery } from '@tanstack/react-query';
import { type PermissionLevel, permissionAnswerSchema } from '@vertragsgenerator/domain';
import { apiFetch, parseJsonAnswer } from './api';
import { rememberPermission, storedUserMail } from './storage';

/** 200 with the level, 204 for a user without one. */
async function fetchPermission(email: string, signal: AbortSignal): Promise<PermissionLevel | null> {
  const response = await apiFetch(`/backend/private/getPermission/${encodeURIComponent(email)}`, {
    method: 'POST',
    signal,
  });
  if (response.status === 204) return null;
  return (await parseJsonAnswer(response, permissionAnswerSchema)).data;
}

/**
 * The signed-in user's permission level as the server knows it now (null: none), asked on every use
 * rather than trusted from local storage, where it is only mirrored (docs/architecture.md#permissions).
 */
export function usePermission() {
  const email = storedUserMail();
  return useQuery({
    queryKey: ['permission', email],
    queryFn: async ({ signal }) => {
      // Without a known user there is nobody to ask about; the route guard stores the email first.
      if (email === null) return null;
      const level = await fetchPermission(email, signal);
      rememberPermission(level);
      return level;
    },
  });
}
