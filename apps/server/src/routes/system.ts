import type { RuntimeConfig } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** Public endpoints: liveness with database reachability, and the SPA's runtime settings. */
export const systemRoutes: FastifyPluginAsync<{ db: Db; runtimeConfig: RuntimeConfig }> = async (
  app,
  { db, runtimeConfig },
) => {
  app.get('/backend/health', async (_request, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { status: 'ok', database: 'up' };
    } catch (error) {
      app.log.warn({ err: error }, 'health check: database down');
      return reply.status(503).send({ status: 'degraded', database: 'down' });
    }
  });

  app.get('/backend/config', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return runtimeConfig;
  });
};
