import { crmWritebacksSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers, noContent } from '../http/openapi.js';
import type { CrmWritebacks } from '../integrations/crm-writeback/crm-writebacks.js';
import { parseInput } from '../shared/http-error.js';

const writebackParams = z.object({
  deliveryId: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, 'Diese CRM-Rückmeldung gibt es nicht.')
    .describe('The write-back’s id'),
});

/** /verwaltung → Integrationen: the CRM write-backs given up, and `Erneut senden`, for administrators only. */
export const crmWritebackRoutes: FastifyPluginAsync<{
  guards: AuthGuards;
  writebacks: CrmWritebacks;
  /** Whether a write-back to the CRM is configured. */
  configured: boolean;
  /** After `Erneut senden`: a write-back run starts without waiting for the next. */
  deliverSoon: () => void;
}> = async (app, { guards, writebacks, configured, deliverSoon }) => {
  const administrators = guards.session(['administrator']);
  const common = { tags: ['administration'], security: BEARER };

  app.get(
    '/backend/admin/crm-writebacks',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'The CRM write-backs given up (refused by the CRM or unreachable for three days)',
        response: { 200: crmWritebacksSchema, ...errorAnswers([401, 403]) },
      },
    },
    async () => ({ configured, givenUp: await writebacks.givenUp() }),
  );

  app.post(
    '/backend/admin/crm-writebacks/:deliveryId/resend',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Erneut senden: write a given-up status change to the CRM again, with three fresh days',
        params: writebackParams,
        response: {
          204: noContent('Due again'),
          ...errorAnswers([400, 401, 403, 404, 409], {
            409: 'Not given up (still due, or in the CRM), or a later status of its envelope is in the CRM already',
          }),
        },
      },
    },
    async (request, reply) => {
      const { deliveryId } = parseInput(writebackParams, request.params);
      await writebacks.resend(currentUser(request).email, deliveryId);
      deliverSoon();
      return reply.status(204).send();
    },
  );
};
