import type { ResolvedMatch } from '@vertragsgenerator/domain';

/**
 * Where match records come from (DESIGN §2): the built-in store or an external CRM. main.ts picks the
 * implementation; the routes know only this interface.
 */
export interface MatchSource {
  /**
   * The match with its fallbacks resolved, or undefined when the source does not know the ID.
   * Throws `MatchSourceUnavailableError` when the source cannot answer right now.
   */
  find(matchId: string): Promise<ResolvedMatch | undefined>;
}

/** The source is down or timed out: the API answers 503, because asking again later may succeed. */
export class MatchSourceUnavailableError extends Error {
  override name = 'MatchSourceUnavailableError';
}
