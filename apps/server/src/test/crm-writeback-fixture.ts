import type { DataList } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import { DocumentsRepository } from '../documents/documents-repository.js';
import { crmWants } from '../integrations/crm-writeback/crm-writer.js';
import { WebhookEventSink } from '../integrations/webhooks/webhook-events.js';
import { MailOutbox } from '../mail/mail-outbox.js';
import { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { EnvelopeSealer } from '../signature/seal/envelope-sealer.js';

const SENDER = 'ops@demo.local';
const SYSTEM = { email: 'system', ip: null, userAgent: null };

/** The product's event sink with the CRM as a target, as wiring/crm-writeback.ts hands it over. */
export const crmEventSink = () =>
  new WebhookEventSink('https://vertrag.example', () => {}, [
    { target: 'crm', wants: crmWants, recorded: () => {} },
  ]);

/**
 * An envelope of match PL-4711, recorded by the repositories as the product records it, with the
 * steps of its life: sent, and completed with a sealed PDF (as the sealer stores it).
 */
export async function crmEnvelope(db: Db, sink: WebhookEventSink) {
  const documents = new DocumentsRepository(db, sink);
  const documentId = await documents.create({
    matchId: 'PL-4711',
    docKey: 'de-wm-pp-rv',
    form: 'docusign',
    createdBy: SENDER,
    fileName: 'PL-4711 Vertrag.docx',
    dataList: {} as DataList,
    dataSha256: 'a'.repeat(64),
  });
  await documents.complete(documentId, {
    content: new Uint8Array([1, 2, 3]),
    templateSha256: 'b'.repeat(64),
    templateVersion: 1,
    createdBy: SENDER,
  });
  const envelopes = new EnvelopesRepository(db, sink);
  const { id } = await envelopes.create({
    documentId,
    documentVersion: 1,
    documentSha256: 'c'.repeat(64),
    matchId: 'PL-4711',
    customer: 'Kunde GmbH',
    docKey: 'de-wm-pp-rv',
    provider: 'builtin',
    subject: 'Vertrag',
    message: '',
    sender: { name: 'Ops', email: SENDER },
    recipients: [
      { role: 'Projektpartner', name: 'Paula Partner', email: 'paula@partner.example', routingOrder: 1 },
    ],
    createdBy: SYSTEM,
    requestKey: null,
  });
  return {
    id,
    send: () => envelopes.addEvent({ envelopeId: id, type: 'sent', actor: SYSTEM }),
    /** Completes the envelope and seals it: the sealer reports the completion with the PDF stored. */
    async complete(pdf: Buffer): Promise<void> {
      await db
        .updateTable('envelopes')
        .set({
          status: 'completed',
          completed_at: new Date(),
          certificate: new Uint8Array([1]),
          seal_due_at: new Date(),
        })
        .where('id', '=', id)
        .execute();
      const sealer = new EnvelopeSealer({
        db,
        envelopes,
        outbox: new MailOutbox(db, { send: async () => {} }, 'support@demo.local', { warn: () => {} }),
        seal: async () => ({ pdf, level: 'B-B', renewBy: null }),
        events: sink,
        log: { warn: () => {} },
      });
      if ((await sealer.sealDue()) !== 1) throw new Error('the envelope was not sealed');
    },
    /** The envelope's history entries of the CRM, oldest first. */
    crmHistory: () =>
      db
        .selectFrom('envelope_events')
        .select(['type', 'detail'])
        .where('envelope_id', '=', id)
        .where('type', 'in', ['crm_filed', 'crm_pending', 'crm_refused'])
        .orderBy('id')
        .execute(),
  };
}
