import type { DocumentReadKind } from '@vertragsgenerator/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReadsLog } from './reads-log.js';

interface ReadRoute {
  kind: DocumentReadKind;
  /** What the path's id names: a document, an envelope, or an approval request (its document version). */
  of: 'document' | 'envelope' | 'approval';
  /** The path parameter holding that id. */
  param?: string;
  /** Who reads where no one is signed in: a system with a credential of its own, checked by the route. */
  machine?: (request: FastifyRequest) => string;
}

/** The routes that hand out a stored file or check one, and what a successful answer of each was. */
const READ_ROUTES: Record<string, ReadRoute> = {
  'GET /backend/documents/:id': { kind: 'document', of: 'document' },
  'GET /backend/documents/:id/file': { kind: 'document', of: 'document' },
  'GET /backend/documents/:id/versions/:version/file': { kind: 'version', of: 'document' },
  'GET /backend/documents/:id/download': { kind: 'version', of: 'document' },
  'GET /backend/approvals/:id/document': { kind: 'version', of: 'approval' },
  'GET /backend/approvals/:id/document.pdf': { kind: 'version', of: 'approval' },
  'GET /backend/signature/envelopes/:id/document': { kind: 'envelope_document', of: 'envelope' },
  'GET /backend/signature/envelopes/:id/document.pdf': { kind: 'envelope_document', of: 'envelope' },
  'GET /backend/signature/envelopes/:id/certificate': { kind: 'certificate', of: 'envelope' },
  'GET /backend/signature/envelopes/:id/signed-pdf': { kind: 'sealed_pdf', of: 'envelope' },
  // The HTTP CRM with the token its write-back carried, a webhook receiver signed with its endpoint's secret.
  'GET /backend/crm/envelopes/:envelopeId/sealed-pdf': {
    kind: 'sealed_pdf',
    of: 'envelope',
    param: 'envelopeId',
    machine: () => 'crm',
  },
  'GET /backend/webhooks/envelopes/:envelopeId/sealed-pdf': {
    kind: 'sealed_pdf',
    of: 'envelope',
    param: 'envelopeId',
    machine: (request) => `webhook:${request.headers['webhook-endpoint'] ?? ''}`,
  },
};
const SEAL_CHECK = 'POST /backend/signature/check';

declare module 'fastify' {
  interface FastifyRequest {
    /** The envelope a seal check found, for the reads log. */
    checkedEnvelope?: string;
  }
}

/**
 * Records every successful read of a stored file — by staff, by API clients (`api:<name>`), by the CRM
 * (`crm`) and webhook receivers (`webhook:<endpoint id>`) fetching a sealed PDF — once the answer went out. Added before the routes, so that its hooks see them.
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
    if (reply.statusCode !== 200 || (request.method !== 'GET' && request.method !== 'POST')) return;
    const key = routeKey(request);
    const route = READ_ROUTES[key];
    const actor = request.user?.email ?? route?.machine?.(request);
    if (!actor) return;
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
    if (!route) return;
    const params = request.params as Record<string, string | undefined>;
    const id = params[route.param ?? 'id'] ?? null;
    const header = reply.getHeader('x-document-version');
    const version = params.version ? Number(params.version) : header !== undefined ? Number(header) : null;
    reads.record({
      at: now(),
      actor,
      kind: route.kind,
      ...(route.of === 'document'
        ? { documentId: id }
        : route.of === 'approval'
          ? { approvalRequestId: id }
          : { envelopeId: id }),
      version: Number.isInteger(version) ? version : null,
      ip: request.ip,
    });
  });
}

function routeKey(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? ''}`;
}
