import type { Db } from '../db/database.js';
import { crmWants } from '../integrations/crm-writeback/crm-writer.js';
import { WebhookEventSink } from '../integrations/webhooks/webhook-events.js';
import { MailOutbox } from '../mail/mail-outbox.js';
import { EnvelopeSealer } from '../signature/seal/envelope-sealer.js';
import { recordedEnvelope, SYSTEM_ACTOR } from './recorded-envelope.js';

/** The product's event sink with the CRM as a target, as wiring/crm-writeback.ts hands it over. */
export const crmEventSink = () =>
  new WebhookEventSink('https://vertrag.example', () => {}, [
    { target: 'crm', wants: crmWants, recorded: () => {} },
  ]);

/**
 * An envelope of match PL-4711, recorded by the repositories as the product records it, with the
 * steps of its life: sent, signed, and completed with a sealed PDF (as the sealer stores it).
 */
export async function crmEnvelope(db: Db, sink: WebhookEventSink) {
  const { id, envelopes } = await recordedEnvelope(db, sink);
  return {
    id,
    send: () => envelopes.addEvent({ envelopeId: id, type: 'sent', actor: SYSTEM_ACTOR }),
    /** A signer's signature (the history entry the signing records; the recipient is not named). */
    sign: () => envelopes.addEvent({ envelopeId: id, type: 'signed', actor: SYSTEM_ACTOR }),
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
