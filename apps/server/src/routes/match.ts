import { normalizeMatchId, type ResolvedMatch } from '@vertragsgenerator/domain';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { type AuthGuards, currentUser } from '../auth/guards.js';
import { HttpError, notFound } from '../http/errors.js';
import { matchIdProblem } from '../matches/match-id.js';
import { type MatchSource, MatchSourceUnavailableError } from '../matches/match-source.js';
import type { RecentMatchesRepository } from '../matches/recent-matches.js';

export interface MatchRoutesDeps {
  guards: AuthGuards;
  matches: MatchSource;
  recent: RecentMatchesRepository;
}

/** SPEC §8: the alert for a wrong match ID, shown by the browser as the server words it. */
export const UNKNOWN_MATCH_MESSAGE = 'Die Match-ID ist nicht korrekt. Bitte gib die ID erneut ein.';

/** Match lookup by ID, and the match the user loaded most recently (SPEC §7). */
export const matchRoutes: FastifyPluginAsync<MatchRoutesDeps> = async (app, { guards, matches, recent }) => {
  async function find(matchId: string, log: FastifyBaseLogger): Promise<ResolvedMatch | undefined> {
    try {
      return await matches.find(matchId);
    } catch (error) {
      if (!(error instanceof MatchSourceUnavailableError)) throw error;
      log.error({ err: error }, 'match source unavailable');
      throw new HttpError(
        503,
        'unavailable',
        'Die Matches sind gerade nicht abrufbar. Bitte versuche es in einem Moment erneut.',
      );
    }
  }

  app.post<{ Params: { matchId: string } }>(
    '/backend/match/:matchId',
    { preHandler: guards.session('staff') },
    async (request) => {
      const matchId = normalizeMatchId(request.params.matchId);
      const problem = matchIdProblem(matchId);
      if (problem) throw new HttpError(400, 'invalid_input', problem, { matchId: [problem] });
      const match = await find(matchId, request.log);
      if (!match) throw notFound(UNKNOWN_MATCH_MESSAGE);
      await recent.record(currentUser(request).email, matchId);
      return match;
    },
  );

  app.post('/backend/match', { preHandler: guards.session('staff') }, async (request, reply) => {
    const matchId = await recent.latest(currentUser(request).email);
    // A match the source no longer knows is as good as none: the user enters an ID again.
    const match = matchId ? await find(matchId, request.log) : undefined;
    if (!match) return reply.status(204).send();
    return match;
  });
};
