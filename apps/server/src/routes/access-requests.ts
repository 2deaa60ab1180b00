import { accessRequestBodySchema, ownAccessRequestSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { AccessRequests } from '../admin/access-requests.js';
import { type AuthGuards, currentUser } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import { HttpError, parseInput } from '../shared/http-error.js';

export interface AccessRequestRoutesDeps {
  guards: AuthGuards;
  requests: AccessRequests;
  rateLimit: { max: number; timeWindow: string };
}

/** "Zugang anfragen" on /login: open to every signed-in person, for their own request only. */
export const accessRequestRoutes: FastifyPluginAsync<AccessRequestRoutesDeps> = async (
  app,
  { guards, requests, rateLimit },
) => {
  app.get(
    '/backend/access-requests/own',
    {
      preHandler: guards.session('signed-in'),
      schema: {
        tags: ['administration'],
        summary: 'The own latest access request',
        security: BEARER,
        response: { 200: ownAccessRequestSchema, ...errorAnswers([401]) },
      },
    },
    async (request) => requests.own(currentUser(request).email),
  );

  app.post(
    '/backend/access-requests',
    {
      preHandler: guards.session('signed-in'),
      config: { rateLimit },
      schema: {
        tags: ['administration'],
        summary: 'Ask Team-Operations for access; a second call while one is open stores nothing',
        security: BEARER,
        body: accessRequestBodySchema,
        response: {
          200: ownAccessRequestSchema.describe('The stored or the already open request'),
          ...errorAnswers([400, 401, 409, 429], { 409: 'The user has a permission level already' }),
        },
      },
    },
    async (request) => {
      const { message } = parseInput(accessRequestBodySchema, request.body ?? {});
      const user = currentUser(request);
      if (user.permission !== null) {
        throw new HttpError(409, 'conflict', 'Du hast bereits Zugang zum Vertragsgenerator.');
      }
      return { request: await requests.request(user, message) };
    },
  );
};
