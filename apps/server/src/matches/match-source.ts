import type { MatchAnswer } from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Where match records come from: the built-in store or an external CRM. compose.ts picks the
 * implementation; the routes know only this interface.
 */
export interface MatchSource {
  /**
   * The match with its fallbacks resolved, or undefined when the source does not know the ID.
   * Throws `MatchSourceUnavailableError` when the source cannot answer right now, `MatchUnreadableError`
   * when its record cannot be read. `log` is the request's logger, for what a source wants on record.
   */
  find(matchId: string, log?: FastifyBaseLogger): Promise<MatchAnswer | undefined>;

  /**
   * Many matches in as few requests as the source allows. Per ID: the match, `undefined` when the source does
   * not know it, or a `MatchUnreadableError` for a record that cannot be read. Throws
   * `MatchSourceUnavailableError` when the source cannot answer at all (then nothing is known).
   * Each ID is answered as `find` answers it; an ID given twice is looked up once.
   */
  findMany(
    matchIds: readonly string[],
    log?: FastifyBaseLogger,
  ): Promise<Map<string, MatchAnswer | undefined | MatchUnreadableError>>;
}

/**
 * The source is down or timed out: the API answers 503, because asking again later may succeed.
 * `userMessage` is the German text users see when the source has its own wording (e.g. the CRM).
 */
export class MatchSourceUnavailableError extends Error {
  override name = 'MatchSourceUnavailableError';
  constructor(
    message: string,
    readonly userMessage?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * The source answered, but its record for the ID cannot be read (a required field missing, a value in
 * the wrong form): the API answers 502 with `userMessage`, since the data must be fixed at the source.
 */
export class MatchUnreadableError extends Error {
  override name = 'MatchUnreadableError';
  constructor(
    message: string,
    readonly userMessage: string,
  ) {
    super(message);
  }
}
