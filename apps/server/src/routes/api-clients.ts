import { apiClientCreatedSchema, apiClientCreateSchema, apiClientSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import type { ApiClients } from '../integrations/api-clients/api-clients.js';
import { parseInput } from '../shared/http-error.js';

const idParams = z.object({
  id: z.string().uuid('Diesen API-Zugang gibt es nicht.').describe('The API client’s id'),
});

/**
 * /verwaltung → API-Zugänge: systems that call the API with a token of their own. Administrators only,
 * whatever their level, and never an API client itself; each creation and revocation is an audit entry.
 */
export const apiClientRoutes: FastifyPluginAsync<{ guards: AuthGuards; clients: ApiClients }> = async (
  app,
  { guards, clients },
) => {
  const administrators = guards.session(['administrator']);
  const common = { tags: ['administration'], security: BEARER };

  app.get(
    '/backend/admin/api-clients',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Every API client, newest first, with its last use; revoked ones stay listed',
        response: { 200: apiClientSchema.array(), ...errorAnswers([401, 403]) },
      },
    },
    async () => clients.list(),
  );

  app.post(
    '/backend/admin/api-clients',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Create an API client; the answer holds its token, shown this once',
        body: apiClientCreateSchema,
        response: {
          201: apiClientCreatedSchema,
          ...errorAnswers([400, 401, 403, 409], { 409: 'An API client of this name exists' }),
        },
      },
    },
    async (request, reply) => {
      const input = parseInput(apiClientCreateSchema, request.body);
      const created = await clients.create(currentUser(request).email, input);
      return reply.code(201).send(created);
    },
  );

  app.post(
    '/backend/admin/api-clients/:id/revoke',
    {
      preHandler: administrators,
      schema: {
        ...common,
        summary: 'Revoke an API client: its token is refused from the next call on',
        params: idParams,
        response: { 200: apiClientSchema, ...errorAnswers([400, 401, 403, 404]) },
      },
    },
    async (request) => {
      const { id } = parseInput(idParams, request.params);
      return clients.revoke(currentUser(request).email, id);
    },
  );
};
