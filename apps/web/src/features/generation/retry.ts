import { ApiRequestError } from '@/lib/api';
import { delay } from '@/lib/delay';

/** Three more attempts after the first, each after a 2 s wait. */
export const GENERATION_RETRIES = 3;
export const GENERATION_RETRY_DELAY_MS = 2000;

/**
 * Only a server that was not reached or failed itself may answer differently next time; a 4xx (unknown key,
 * invalid data, forbidden) would only repeat (docs/decisions.md#retry-only-passing-failures). The exception
 * is 409 `in_progress`: an earlier attempt of this click is still being worked on, and asking again with the
 * same key gets its result — a new click would make a second envelope.
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  return error.status === 0 || error.status >= 500 || (error.status === 409 && error.code === 'in_progress');
}

/** Runs `attempt` (numbered from 1) until it succeeds, a failure is final, or the retries are used up. */
export async function withRetries<T>(attempt: (attemptNumber: number) => Promise<T>): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (attemptNumber > GENERATION_RETRIES || !isRetryable(error)) throw error;
      await delay(GENERATION_RETRY_DELAY_MS);
    }
  }
}
