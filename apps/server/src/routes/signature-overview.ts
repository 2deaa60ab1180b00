import { envelopeOverviewSchema, overviewQuerySchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { parseInput } from '../shared/http-error.js';
import type { EnvelopeOverviewQuery } from '../signature/overview/envelope-overview.js';

export interface SignatureOverviewRoutesDeps {
  guards: AuthGuards;
  overview: EnvelopeOverviewQuery;
  /** Built-in signing runs here: envelopes can be changed from the overview. */
  builtinSigning: boolean;
}

/** `/signaturen` — Offene Signaturen: the envelopes to follow up on, filtered and searched. */
export const signatureOverviewRoutes: FastifyPluginAsync<SignatureOverviewRoutesDeps> = async (app, deps) => {
  app.get(
    '/backend/signature/envelopes',
    {
      preHandler: deps.guards.session('staff'),
      schema: {
        tags: ['signature'],
        summary: 'The envelopes to follow up on: the user’s own, or all for legal staff',
        description:
          'Newest activity first, one page at a time; `counts` tells per filter how many match the search.',
        security: BEARER,
        querystring: overviewQuerySchema,
        response: {
          200: envelopeOverviewSchema,
          ...errorAnswers([400, 401, 403], {
            400: 'An unknown filter, a page out of range or a search too long',
          }),
        },
      },
    },
    async (request) => {
      const query = parseInput(overviewQuerySchema, request.query);
      const user = currentUser(request);
      return deps.overview.page(
        { email: user.email, permission: user.permission, mayChangeBuiltin: deps.builtinSigning },
        query,
        new Date(),
      );
    },
  );
};
