import { matchAnswerSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers, noContent } from '../http/openapi.js';
import { findMatch, requireMatch } from '../matches/match-lookup.js';
import type { MatchSource } from '../matches/match-source.js';
import type { RecentMatchesRepository } from '../matches/recent-matches.js';

export interface MatchRoutesDeps {
  guards: AuthGuards;
  matches: MatchSource;
  recent: RecentMatchesRepository;
}

/** Match lookup by ID, and the match the user loaded most recently. */
export const matchRoutes: FastifyPluginAsync<MatchRoutesDeps> = async (app, { guards, matches, recent }) => {
  app.post<{ Params: { matchId: string } }>(
    '/backend/match/:matchId',
    {
      preHandler: guards.session('staff'),
      schema: {
        tags: ['match'],
        summary: 'Look up a match and remember it as the user’s latest',
        security: BEARER,
        params: z.object({ matchId: z.string().describe('The match ID, with or without `PL-`') }),
        response: {
          200: matchAnswerSchema.describe(
            'The match, fallback fields resolved; `cachedAt` when the CRM was unreachable',
          ),
          ...errorAnswers([400, 401, 403, 404, 503], {
            400: 'The match ID is malformed',
            404: 'No match has this ID',
            503: 'The CRM is unavailable',
          }),
        },
      },
    },
    async (request) => {
      const match = await requireMatch(matches, request.params.matchId, request.log);
      await recent.record(currentUser(request).email, match.matchId);
      return match;
    },
  );

  app.post(
    '/backend/match',
    {
      preHandler: guards.session('staff'),
      schema: {
        tags: ['match'],
        summary: 'The match the user looked up last',
        security: BEARER,
        response: {
          200: matchAnswerSchema.describe(
            'The match, fallback fields resolved; `cachedAt` when the CRM was unreachable',
          ),
          204: noContent('The user has no latest match, or the CRM no longer knows it'),
          ...errorAnswers([401, 403, 503], { 503: 'The CRM is unavailable' }),
        },
      },
    },
    async (request, reply) => {
      const matchId = await recent.latest(currentUser(request).email);
      // A match the source no longer knows is as good as none: the user enters an ID again.
      const match = matchId ? await findMatch(matches, matchId, request.log) : undefined;
      if (!match) return reply.status(204).send();
      return match;
    },
  );
};
