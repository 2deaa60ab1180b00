import { normalizeMatchId, type ResolvedMatch } from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError, notFound } from '../shared/http-error.js';
import { matchIdProblem } from './match-id.js';
import { type MatchSource, MatchSourceUnavailableError, MatchUnreadableError } from './match-source.js';

/** The alert for a wrong match ID, shown by the browser as the server words it. */
export const UNKNOWN_MATCH_MESSAGE = 'Die Match-ID ist nicht korrekt. Bitte gib die ID erneut ein.';

/**
 * The match, or undefined when the source does not know it; a source that is down answers 503, a record
 * the source delivers in an unreadable form 502.
 */
export async function findMatch(
  matches: MatchSource,
  matchId: string,
  log: FastifyBaseLogger,
): Promise<ResolvedMatch | undefined> {
  try {
    return await matches.find(matchId, log);
  } catch (error) {
    if (error instanceof MatchUnreadableError) {
      log.error({ err: error, matchId }, 'match record unreadable');
      throw new HttpError(502, 'bad_gateway', error.userMessage);
    }
    if (!(error instanceof MatchSourceUnavailableError)) throw error;
    log.error({ err: error }, 'match source unavailable');
    throw new HttpError(
      503,
      'unavailable',
      error.userMessage ??
        'Die Matches sind gerade nicht abrufbar. Bitte versuche es in einem Moment erneut.',
    );
  }
}

/**
 * The match a path parameter names, as the user typed it (with or without `PL-`): a malformed ID is
 * 400 with the reason, an unknown one 404 with `UNKNOWN_MATCH_MESSAGE`.
 */
export async function requireMatch(
  matches: MatchSource,
  typedMatchId: string,
  log: FastifyBaseLogger,
): Promise<ResolvedMatch> {
  const matchId = normalizeMatchId(typedMatchId);
  const problem = matchIdProblem(matchId);
  if (problem) throw new HttpError(400, 'invalid_input', problem, { matchId: [problem] });
  const match = await findMatch(matches, matchId, log);
  if (!match) throw notFound(UNKNOWN_MATCH_MESSAGE);
  return match;
}
