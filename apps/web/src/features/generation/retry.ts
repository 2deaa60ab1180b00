import { ApiRequestError } from '../../lib/api';
import { delay } from '../../lib/delay';

/** SPEC §9: three more attempts after the first, each after a 2 s wait. */
export const GENERATION_RETRIES = 3;
export const GENERATION_RETRY_DELAY_MS = 2000;

/**
 * Only a server that was not reached or failed itself may answer differently next time; a 4xx
 * (unknown key, invalid data, forbidden) would only repeat (DESIGN §10.2).
 */
export function isRetryable(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.status === 0 || error.status >= 500);
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
