import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { Review } from '@vertragsgenerator/domain';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { documentReviewQueryOptions } from './api';

/** The cached negotiation of one document: every change answers the whole review, which replaces it. */
export function useReviewCache(documentId: string) {
  const queryClient = useQueryClient();
  const { queryKey } = documentReviewQueryOptions(documentId);
  return {
    set(review: Review) {
      queryClient.setQueryData(queryKey, { review, proposedReviewers: [] });
    },
    reload(): Promise<void> {
      return queryClient.invalidateQueries({ queryKey });
    },
  };
}

export type ReviewCache = ReturnType<typeof useReviewCache>;

/**
 * A refused action as a notification; a 409 (the counterparty returned, someone else decided or ended
 * the negotiation meanwhile) also reloads it, so the panel shows what now holds.
 */
export function notifyFailure(error: unknown, cache: ReviewCache): void {
  const conflict = error instanceof ApiRequestError && error.status === 409;
  notifications.show({ color: conflict ? 'yellow' : 'red', message: errorMessage(error) });
  if (conflict) void cache.reload();
}

/** Passes the call's outcome on; a 409 first reloads the negotiation, whose state changed meanwhile. */
export async function reloadOnConflict<T>(call: Promise<T>, cache: ReviewCache): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 409) void cache.reload();
    throw error;
  }
}
