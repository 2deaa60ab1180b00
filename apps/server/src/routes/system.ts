import { healthSchema, type RuntimeConfig, runtimeConfigSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { PUBLIC } from '../http/openapi.js';

/** Public endpoints: liveness with database reachability, and the SPA's runtime settings. */
export const systemRoutes: FastifyPluginAsync<{ db: Db; runtimeConfig: RuntimeConfig }> = async (
  app,
  { db, runtimeConfig },
) => {
  app.get(
    '/backend/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database reachability',
        security: PUBLIC,
        response: {
          200: healthSchema.describe('The server runs and reaches its database'),
          503: healthSchema.describe('The database is not reachable'),
        },
      },
    },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(db);
        return { status: 'ok', database: 'up' };
      } catch (error) {
        app.log.warn({ err: error }, 'health check: database down');
        return reply.status(503).send({ status: 'degraded', database: 'down' });
      }
    },
  );

  app.get(
    '/backend/config',
    {
      schema: {
        tags: ['system'],
        summary: 'Runtime settings of the web app',
        security: PUBLIC,
        response: { 200: runtimeConfigSchema.describe('Sign-in, editor and signature settings') },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return runtimeConfig;
    },
  );
};
