import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { acknowledged, errorAnswers, PUBLIC } from '../http/openapi.js';
import { HttpError, notFound } from '../shared/http-error.js';
import {
  connectEventSchema,
  parseConnectEvent,
  verifyConnectSignature,
} from '../signature/docusign/connect.js';
import type { ProviderReport, ProviderReportOutcome } from '../signature/docusign/connect-events.js';

export interface DocusignConnectRoutesDeps {
  /** DOCUSIGN_CONNECT_HMAC_KEY; without it the webhook is off. */
  hmacKey: string | undefined;
  envelopes: {
    /** Records an event DocuSign reports; its status only when the envelope is not further along. */
    recordProviderStatus(report: ProviderReport): Promise<ProviderReportOutcome>;
  };
  /** Starts fetching DocuSign's combined document of a completed envelope (EnvelopeSealer). */
  onCompleted: () => void;
}

/**
 * DocuSign Connect calls this when an envelope changes. It is public: the HMAC signature over the raw
 * body is its only authentication, which is why this plugin must stay encapsulated (no
 * fastify-plugin): its JSON parser hands over bytes, not objects, and must not leak to other routes.
 */
export const docusignConnectRoutes: FastifyPluginAsync<DocusignConnectRoutesDeps> = async (
  app,
  { hmacKey, envelopes, onCompleted },
) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    '/backend/signature/docusign/connect',
    {
      schema: {
        tags: ['signature'],
        summary: 'DocuSign Connect webhook (JSON SIM, HMAC-signed)',
        security: PUBLIC,
        headers: z.object({
          'x-docusign-signature-1': z
            .string()
            .describe('Base64 HMAC-SHA256 of the body; during a key rotation also `-2`, `-3`, …'),
        }),
        body: connectEventSchema,
        response: {
          200: acknowledged.describe(
            'Recorded (a status only when it is further along than the envelope’s), or acknowledged for ' +
              'a repeated event or an envelope we do not know',
          ),
          ...errorAnswers([400, 401, 404], {
            400: 'Not a DocuSign Connect event',
            401: 'The HMAC signature is missing or wrong',
            404: 'No Connect HMAC key is configured',
          }),
        },
      },
    },
    async (request) => {
      if (!hmacKey) throw notFound();
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!verifyConnectSignature(rawBody, request.headers, hmacKey)) {
        throw new HttpError(
          401,
          'invalid_signature',
          'Die Signatur der DocuSign-Nachricht fehlt oder ist ungültig.',
        );
      }
      let body: unknown;
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        body = undefined;
      }
      const event = parseConnectEvent(body);
      if (!event) {
        throw new HttpError(
          400,
          'invalid_event',
          'Die Nachricht ist kein DocuSign-Connect-Ereignis (JSON SIM).',
        );
      }
      const outcome = await envelopes.recordProviderStatus(event);
      // A repeated completion may make a missing combined document due again; a duplicate changed nothing.
      if (event.status === 'completed' && (outcome === 'moved' || outcome === 'kept')) onCompleted();
      if (outcome === 'kept' && event.status) {
        request.log.info(
          { externalId: event.externalId, providerStatus: event.providerStatus, at: event.at },
          'DocuSign Connect event not further along than its envelope: recorded, status kept',
        );
      }
      // Acknowledged all the same: DocuSign would otherwise retry an envelope we will never know
      // (sent from DocuSign directly, or from another system on the same account).
      if (outcome === 'unknown') {
        request.log.warn(
          { externalId: event.externalId, providerStatus: event.providerStatus },
          'DocuSign Connect event for an unknown envelope',
        );
      }
      return { ok: true };
    },
  );
};
