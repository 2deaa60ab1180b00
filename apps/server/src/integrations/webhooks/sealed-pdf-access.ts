import { sql } from 'kysely';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { Db } from '../../db/database.js';
import { HttpError, notFound } from '../../shared/http-error.js';
import { sealedFileName } from '../../signature/seal/completion-mail.js';

/** Where a receiver told of `envelope.completed` fetches the sealed PDF. */
export const sealedPdfPath = (envelopeId: string) => `/backend/webhooks/envelopes/${envelopeId}/sealed-pdf`;

/** The headers of a fetch, signed as Standard Webhooks signs a payload (over an empty body). */
export interface SignedFetch {
  endpointId: string | undefined;
  webhookId: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

const refused = () =>
  new HttpError(
    401,
    'unauthorized',
    'Die Anfrage ist nicht mit dem Geheimnis eines Webhook-Empfängers signiert, oder die Signatur ist abgelaufen.',
  );

/**
 * The sealed PDF for a webhook receiver, with the endpoint's own credential instead of a person's
 * sign-in: the receiver signs the request with its endpoint's secret as Standard Webhooks signs a
 * payload (`webhook-id` = the envelope's id, `webhook-timestamp`, `webhook-signature` over an empty
 * body) and names its endpoint in `webhook-endpoint`. The timestamp's five minutes keep a recorded
 * request from being replayed, and only an envelope whose completion was reported to that endpoint
 * is answered.
 */
export class SealedPdfAccess {
  constructor(private readonly db: Db) {}

  async sealedPdf(envelopeId: string, request: SignedFetch): Promise<{ pdf: Uint8Array; fileName: string }> {
    const { endpointId, webhookId, timestamp, signature } = request;
    if (!endpointId || !webhookId || !timestamp || !signature) throw refused();
    if (!/^[0-9a-f-]{36}$/i.test(endpointId) || webhookId !== envelopeId) throw refused();
    const endpoint = await this.db
      .selectFrom('webhook_endpoints')
      .select(['id', 'secret'])
      .where('id', '=', endpointId)
      .executeTakeFirst();
    if (!endpoint) throw refused();
    try {
      new Webhook(endpoint.secret).verify('', {
        'webhook-id': webhookId,
        'webhook-timestamp': timestamp,
        'webhook-signature': signature,
      });
    } catch (error) {
      if (error instanceof WebhookVerificationError) throw refused();
      throw error;
    }
    const reported = await this.db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
      .select('webhook_deliveries.id')
      .where('webhook_deliveries.endpoint_id', '=', endpoint.id)
      .where('webhook_events.type', '=', 'envelope.completed')
      .where(sql<string>`webhook_events.payload->'data'->>'envelopeId'`, '=', envelopeId)
      .executeTakeFirst();
    const row =
      reported &&
      (await this.db
        .selectFrom('envelopes')
        .innerJoin('documents', 'documents.id', 'envelopes.document_id')
        .select(['envelopes.sealed_pdf', 'documents.file_name'])
        .where('envelopes.id', '=', envelopeId)
        .executeTakeFirst());
    if (!row?.sealed_pdf)
      throw notFound('Von diesem Umschlag wurde diesem Empfänger kein versiegeltes PDF gemeldet.');
    return { pdf: row.sealed_pdf, fileName: sealedFileName(row.file_name) };
  }
}
