import type { DirectoryUser } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { AuthGuards } from '../auth/guards.js';
import type { UsersRepository } from '../users/users-repository.js';

/** The staff directory that feeds the sender and CC lists (SPEC §7 `GET backend/users`). */
export const usersRoutes: FastifyPluginAsync<{ guards: AuthGuards; users: UsersRepository }> = async (
  app,
  { guards, users },
) => {
  app.get('/backend/users', { preHandler: guards.session('staff') }, async () => {
    const members = await users.list();
    return members.map((m): DirectoryUser => ({ Name: m.name, Email: m.email }));
  });
};
