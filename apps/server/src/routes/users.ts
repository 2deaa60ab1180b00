import { type DirectoryUser, directoryUserSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { AuthGuards } from '../http/guards.js';
import { BEARER, errorAnswers } from '../http/openapi.js';
import type { UsersRepository } from '../users/users-repository.js';

/** The staff directory that feeds the sender and CC lists (`GET /backend/users`). */
export const usersRoutes: FastifyPluginAsync<{ guards: AuthGuards; users: UsersRepository }> = async (
  app,
  { guards, users },
) => {
  app.get(
    '/backend/users',
    {
      preHandler: guards.session('staff'),
      schema: {
        tags: ['users'],
        summary: 'List the staff directory (senders and CC recipients)',
        security: BEARER,
        response: {
          200: directoryUserSchema.array().describe('Everyone in the directory'),
          ...errorAnswers([401, 403]),
        },
      },
    },
    async () => {
      const members = await users.list();
      return members.map((m): DirectoryUser => ({ Name: m.name, Email: m.email }));
    },
  );
};
