import { createHash, timingSafeEqual } from 'node:crypto';
import { readinessSchema } from '@vertragsgenerator/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorAnswers, METRICS_TOKEN, PUBLIC } from '../http/openapi.js';
import type { Metrics } from '../operations/metrics.js';
import { checkReadiness, type ReadinessSources } from '../operations/readiness.js';
import { unauthorized } from '../shared/http-error.js';

export interface OperationsRoutesDeps extends ReadinessSources {
  /** Present when METRICS_TOKEN is set; without it there is no metrics route. */
  metrics?: { collected: Metrics; token: string };
}

/** Readiness for the load balancer, and the metrics for a Prometheus scraper (docs/operations.md). */
export const operationsRoutes: FastifyPluginAsync<OperationsRoutesDeps> = async (app, deps) => {
  app.get(
    '/backend/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: database, render threads and mail outbox; 503 while starting or draining',
        security: PUBLIC,
        response: {
          200: readinessSchema.describe('This replica takes requests'),
          503: readinessSchema.describe('Starting, stopping, or a part it needs is down'),
        },
      },
    },
    async (_request, reply) => {
      const readiness = await checkReadiness(deps);
      return reply.status(readiness.status === 'ready' ? 200 : 503).send(readiness);
    },
  );

  const { metrics } = deps;
  if (!metrics) return;
  app.get(
    '/backend/metrics',
    {
      schema: {
        tags: ['system'],
        summary: 'Metrics in the Prometheus text format, for the holder of METRICS_TOKEN',
        security: METRICS_TOKEN,
        response: {
          200: z.string().describe('Prometheus text exposition format'),
          ...errorAnswers([401]),
        },
      },
    },
    async (request, reply) => {
      // The same answer as any private route without a session: nothing about which metrics exist.
      if (!presentsToken(request, metrics.token)) throw unauthorized();
      return reply.type(metrics.collected.contentType).send(await metrics.collected.text());
    },
  );
};

/** Compared as digests in constant time: the answer time tells nothing about how much of it matched. */
function presentsToken(request: FastifyRequest, token: string): boolean {
  const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
  if (!match?.[1]) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
