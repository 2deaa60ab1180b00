import type { DocumentReadKind } from '@vertragsgenerator/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReadsLog } from './reads-log.js';

/** The routes that hand out a stored file or check one, and what a successful answer of each was. */
const READ_ROUTES: Record<string, { kind: DocumentReadKind; of: 'document' | 'envelope' }> = {
  'GET /backend/documents/:id': { kind: 'document', of: 'document' },
  'GET /backend/documents/:id/file': { kind: 'document', of: 'document' },
  'GET /backend/documents/:id/versions/:version/file': { kind: 'version', of: 'document' },
  'GET /backend/documents/:id/download': { kind: 'version', of: 'document' },
  'GET /backend/signature/envelopes/:id/document': { kind: 'envelope_document', of: 'envelope' },
  'GET /backend/signature/envelopes/:id/document.pdf': { kind: 'envelope_document', of: 'envelope' },
  'GET /backend/signature/envelopes/:id/certificate': { kind: 'certificate', of: 'envelope' },
  'GET /backend/signature/envelopes/:id/signed-pdf': { kind: 'sealed_pdf', of: 'envelope' },
};
const SEAL_CHECK = 'POST /backend/signature/check';

declare module 'fastify' {
  interface FastifyRequest {
    /** The envelope a seal check found, for the reads log. */
    checkedEnvelope?: string;
  }
}

/**
 * Records every successful read of a stored file — by staff and by API clients (`api:<name>`) — once the
 * answer went out. Added before the routes, so that its hooks see them.
 */
export function recordReads(app: FastifyInstance, reads: ReadsLog, now: () => Date = () => new Date()): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (routeKey(request) === SEAL_CHECK && reply.statusCode === 200 && typeof payload === 'string') {
      try {
        const id = (JSON.parse(payload) as { envelope?: { id?: string } | null }).envelope?.id;
        if (id) request.checkedEnvelope = id;
      } catch {
        // Not JSON: nothing found to record.
      }
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const actor = request.user?.email;
    if (!actor || reply.statusCode !== 200 || (request.method !== 'GET' && request.method !== 'POST')) return;
    const key = routeKey(request);
    if (key === SEAL_CHECK) {
      if (request.checkedEnvelope) {
        reads.record({
          at: now(),
          actor,
          kind: 'seal_check',
          envelopeId: request.checkedEnvelope,
          ip: request.ip,
        });
      }
      return;
    }
    const route = READ_ROUTES[key];
    if (!route) return;
    const params = request.params as { id?: string; version?: string };
    const header = reply.getHeader('x-document-version');
    const version = params.version ? Number(params.version) : header !== undefined ? Number(header) : null;
    reads.record({
      at: now(),
      actor,
      kind: route.kind,
      ...(route.of === 'document' ? { documentId: params.id ?? null } : { envelopeId: params.id ?? null }),
      version: Number.isInteger(version) ? version : null,
      ip: request.ip,
    });
  });
}

function routeKey(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? ''}`;
}
