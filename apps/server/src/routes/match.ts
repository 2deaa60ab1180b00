import type { FastifyPluginAsync } from 'fastify';
import { type AuthGuards, currentUser } from '../auth/guards.js';
import type { MatchSource } from '../matches/match-source.js';
import type { RecentMatchesRepository } from '../matches/recent-matches.js';
import { findMatch, requireMatch } from './match-lookup.js';

export interface MatchRoutesDeps {
  guards: AuthGuards;
  matches: MatchSource;
  recent: RecentMatchesRepository;
}

/** Match lookup by ID, and the match the user loaded most recently (SPEC §7). */
export const matchRoutes: FastifyPluginAsync<MatchRoutesDeps> = async (app, { guards, matches, recent }) => {
  app.post<{ Params: { matchId: string } }>(
    '/backend/match/:matchId',
    { preHandler: guards.session('staff') },
    async (request) => {
      const match = await requireMatch(matches, request.params.matchId, request.log);
      await recent.record(currentUser(request).email, match.matchId);
      return match;
    },
  );

  app.post('/backend/match', { preHandler: guards.session('staff') }, async (request, reply) => {
    const matchId = await recent.latest(currentUser(request).email);
    // A match the source no longer knows is as good as none: the user enters an ID again.
    const match = matchId ? await findMatch(matches, matchId, request.log) : undefined;
    if (!match) return reply.status(204).send();
    return match;
  });
};
