import { type Signatory, type SignatoryOption, signatoryListSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { AuthGuards } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';

/** The people the offer and termination forms offer as `selectedPerson` (config/signatories.json). */
export const signatoryRoutes: FastifyPluginAsync<{
  guards: AuthGuards;
  signatories: readonly Signatory[];
}> = async (app, { guards, signatories }) => {
  // The forms only name the person; their e-mail address stays on the server.
  const options = signatories.map(
    ({ id, name, function: role }): SignatoryOption => ({
      id,
      name,
      function: role,
    }),
  );
  app.get(
    '/backend/signatories',
    {
      preHandler: guards.session('staff'),
      schema: {
        tags: ['users'],
        summary: 'List who may sign offers and terminations (`selectedPerson`)',
        security: BEARER,
        response: {
          200: signatoryListSchema.describe('The signatories, without their e-mail addresses'),
          ...errorAnswers([401, 403]),
        },
      },
    },
    async () => options,
  );
};
