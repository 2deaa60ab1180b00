import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditLog } from '../admin/audit-log.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import type { ApiClientGate } from '../http/guards.js';
import { ApiClients } from '../integrations/api-clients/api-clients.js';
import { apiClientRoutes } from '../routes/api-clients.js';
import { HttpError } from '../shared/http-error.js';
import type { AppContext } from './app-context.js';

export interface ApiClientAccess {
  clients: ApiClients;
  gate: ApiClientGate;
}

/**
 * What the guards need to admit API clients, made before the guards and the routes: the limit per
 * client, and the audit entry of every call it makes. The entry is written once the answer is sent
 * (`onResponse`), so it costs the caller no time, with the status the call was answered with.
 */
export function createApiClientAccess(
  app: FastifyInstance,
  { db, config, audit }: { db: Db; config: Config; audit: AuditLog },
): ApiClientAccess {
  const clients = new ApiClients(db, audit);
  // Keyed by client, not by address: one CRM behind a proxy is one caller, two clients are two.
  const limiter = app.createRateLimit({
    max: config.admin.apiClientRequestsPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => `api-client:${request.apiClient?.id ?? ''}`,
  });
  const gate: ApiClientGate = {
    authenticate: (token) => clients.authenticate(token),
    async throttle(request) {
      const limit = await limiter(request);
      if (limit.isAllowed || !limit.isExceeded) return;
      throw new HttpError(
        429,
        'rate_limited',
        `Dieser API-Zugang hat mehr als ${limit.max} Anfragen in einer Minute gestellt. Bitte versuche es in ${limit.ttlInSeconds} Sekunden erneut.`,
      );
    },
  };
  app.addHook('onResponse', async (request, reply) => {
    const client = request.apiClient;
    if (!client) return;
    // Without the query: the path names what was called; a query may carry what does not belong in a log.
    const path = request.url.split('?')[0];
    try {
      await clients.recordCall(client, `${request.method} ${path}`, reply.statusCode);
    } catch (error) {
      request.log.error({ err: error, client: client.name }, 'api client call not recorded');
    }
  });
  return { clients, gate };
}

/** /verwaltung → API-Zugänge: the administrators' routes to create, list and revoke clients. */
export async function registerApiClients(context: AppContext, access: ApiClientAccess): Promise<void> {
  await context.app.register(apiClientRoutes, { guards: context.guards, clients: access.clients });
}
