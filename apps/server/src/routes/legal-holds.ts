import { legalHoldRequestSchema, legalHoldSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { isUuid } from '../http/path-values.js';
import type { LegalHolds } from '../privacy/legal-holds.js';
import { notFound, parseInput } from '../shared/http-error.js';

const holdParams = z.object({ id: z.uuid().describe('The legal hold') });

/** Legal holds on matches: placed with a reason and lifted by administrators, both audited. */
export const legalHoldRoutes: FastifyPluginAsync<{ guards: AuthGuards; holds: LegalHolds }> = async (
  app,
  { guards, holds },
) => {
  const administrators = guards.session(['administrator']);
  const common = { tags: ['administration'], security: BEARER };

  app.post(
    '/backend/admin/legal-holds',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Stop every deletion for a match until the hold is lifted',
        body: legalHoldRequestSchema,
        response: {
          201: legalHoldSchema,
          ...errorAnswers([400, 401, 403, 404, 409, 503], {
            404: 'Unknown match',
            409: 'The match is already held',
          }),
        },
      },
    },
    async (request, reply) => {
      const { matchId, reason } = parseInput(legalHoldRequestSchema, request.body);
      const hold = await holds.place(currentUser(request).email, matchId, reason, request.log);
      return reply.code(201).send(hold);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/backend/admin/legal-holds/:id/lift',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Lift a legal hold: the rules apply to the match again',
        params: holdParams,
        response: {
          200: legalHoldSchema,
          ...errorAnswers([401, 403, 404], { 404: 'Unknown or already lifted hold' }),
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!isUuid(id))
        throw notFound('Diese Aufbewahrungssperre gibt es nicht oder sie ist schon aufgehoben.');
      return holds.lift(currentUser(request).email, id);
    },
  );
};
