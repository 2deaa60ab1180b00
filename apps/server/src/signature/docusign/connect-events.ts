import type { EnvelopeStatus } from '@vertragsgenerator/domain';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { ProductEvent } from '../../shared/product-events.js';
import { DOCUSIGN_STATUS_RANK, ENVELOPE_STATUS_RANK } from './connect.js';
import { countersignatureGap } from './connect-countersignature.js';

/** An event DocuSign reported about one of its envelopes (Connect), as parseConnectEvent reads it. */
export interface ProviderReport {
  /** DocuSign's envelope id. */
  externalId: string;
  /** Our status the event leads to; null for events that change none. */
  status: EnvelopeStatus | null;
  /** DocuSign's own word for it: `delivered`, `recipient-completed`, … */
  providerStatus: string;
  /** DocuSign's id of the recipient a recipient event is about. */
  recipientId: string | null;
  /** When DocuSign generated the event. */
  at: Date;
  /** The envelope's signers' role names as the message lists them; null or absent when it lists none. */
  signerRoles?: readonly string[] | null;
}

/**
 * `moved`: the envelope took over the event's status; `kept`: recorded, the status stays (the
 * envelope is as far or further along, or the event has no status); `duplicate`: this very event was
 * recorded before, nothing changed; `unknown`: no envelope of ours has the external id.
 */
export type ProviderReportOutcome = 'moved' | 'kept' | 'duplicate' | 'unknown';

/**
 * The history entry of a Connect event, as the envelopes' repository adds it (its `addEvent`); DocuSign
 * is the actor, with no address or browser of a person.
 */
interface ConnectEventEntry {
  envelopeId: string;
  type: 'provider_status';
  actor: { email: string; ip: null; userAgent: null };
  detail: string;
}

/**
 * What other systems are told of a Connect event, as the same fact of built-in signing is told: the
 * envelope's `sent`, `declined` and `voided` once its status moved there, and a signer's `signed`.
 * Completion is told once the signed PDF is fetched and sealed (`envelope.sealed`).
 */
const TOLD_WHEN_MOVED: ReadonlySet<EnvelopeStatus> = new Set(['sent', 'declined', 'voided']);

/** DocuSign as the actor of a history entry: no address or browser of a person. */
const DOCUSIGN = { email: '', ip: null, userAgent: null };

/** Added to the history entry of an event whose status the envelope did not take over. */
export const STATUS_KEPT = '– Status unverändert: Der Umschlag ist schon so weit oder weiter.';

/** `case column when … then rank … else 0 end`: a status column's rank in SQL. */
const rankOf = (column: 'status' | 'provider_status', ranks: ReadonlyMap<string, number>) =>
  sql<number>`case ${sql.ref(column)} ${sql.join(
    [...ranks].map(([word, rank]) => sql`when ${word} then ${sql.lit(rank)}`),
    sql` `,
  )} else 0 end`;

/**
 * How far along an envelope is: the higher of the ranks of our status and of DocuSign's last status
 * word (`delivered` is further than our `sent` shows).
 */
const currentStatusRank = sql<number>`greatest(${rankOf('status', ENVELOPE_STATUS_RANK)}, ${rankOf('provider_status', DOCUSIGN_STATUS_RANK)})`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/**
 * Records a Connect event in the envelope's history. Its status is taken over only when it is further
 * along than the envelope's (DOCUSIGN_STATUS_RANK): Connect delivers late and out of order, and a late
 * `delivered` must not undo `completed`. That rule is the UPDATE's own condition, so it holds whatever
 * else writes the row. The row lock taken first makes concurrent deliveries for one envelope wait for
 * each other, so the same event delivered twice is recorded once. Events without a status of ours
 * (recipient events, `corrected`, …) change neither `status` nor `provider_status`, which keeps
 * DocuSign's envelope status.
 */
export async function recordConnectEvent(
  db: Db,
  report: ProviderReport,
  addEvent: (event: ConnectEventEntry, executor: Transaction<Database>) => Promise<void>,
  /** Tells other systems (webhooks, the CRM's write-back) in the same transaction. */
  tell: (event: ProductEvent, executor: Transaction<Database>) => Promise<void> = async () => {},
): Promise<ProviderReportOutcome> {
  const { externalId, status, providerStatus, recipientId, at } = report;
  return db.transaction().execute(async (trx) => {
    const envelope = await trx
      .selectFrom('envelopes')
      .select(['id', 'doc_key'])
      .where('provider', '=', 'docusign')
      .where('external_id', '=', externalId)
      .forUpdate()
      .executeTakeFirst();
    if (!envelope) return 'unknown';
    // DocuSign repeats a delivery it holds unanswered with the same event and time.
    const reported = `DocuSign: ${providerStatus}${recipientId ? `, Empfänger ${recipientId}` : ''} (${at.toISOString()})`;
    const seen = await trx
      .selectFrom('envelope_events')
      .select('id')
      .where('envelope_id', '=', envelope.id)
      .where('type', '=', 'provider_status')
      .where((eb) => eb.or([eb('detail', '=', reported), eb('detail', 'like', `${escapeLike(reported)} %`)]))
      .executeTakeFirst();
    if (seen) return 'duplicate';
    const rank = status ? DOCUSIGN_STATUS_RANK.get(providerStatus) : undefined;
    let moved = false;
    if (status && rank !== undefined) {
      const { numUpdatedRows } = await trx
        .updateTable('envelopes')
        .set({
          status,
          provider_status: providerStatus,
          // Completed: due for fetching DocuSign's combined document (EnvelopeSealer), unless fetched.
          ...(status === 'completed'
            ? { completed_at: at, seal_due_at: sql<Date | null>`case when sealed_pdf is null then now() end` }
            : {}),
        })
        .where('id', '=', envelope.id)
        .where(currentStatusRank, '<', rank)
        .executeTakeFirst();
      moved = numUpdatedRows > 0n;
      if (!moved && status === 'completed') {
        // Another completion event of a completed envelope whose document is still missing: DocuSign
        // may have it ready now, so the next fetch need not wait for its backoff.
        await trx
          .updateTable('envelopes')
          .set({ seal_due_at: sql<Date>`now()` })
          .where('id', '=', envelope.id)
          .where('status', '=', 'completed')
          .where('sealed_pdf', 'is', null)
          .execute();
      }
    }
    await addEvent(
      {
        envelopeId: envelope.id,
        type: 'provider_status',
        actor: DOCUSIGN,
        detail: status && !moved ? `${reported} ${STATUS_KEPT}` : reported,
      },
      trx,
    );
    // Recorded for any first report of the sending, late or not: who it went to does not age.
    const gap =
      providerStatus === 'sent'
        ? await countersignatureGap(trx, envelope.doc_key, report.signerRoles ?? null)
        : undefined;
    if (gap) {
      await addEvent(
        {
          envelopeId: envelope.id,
          type: 'provider_status',
          actor: DOCUSIGN,
          detail: gap,
        },
        trx,
      );
    }
    // `delivered` moves DocuSign's status but not ours (still `sent`): told only in DocuSign's own words.
    const told = moved && status === providerStatus && TOLD_WHEN_MOVED.has(status) ? status : undefined;
    if (told) {
      await tell(
        { kind: 'envelope.event', envelopeId: envelope.id, type: told, recipientId: null, detail: reported },
        trx,
      );
    } else if (providerStatus === 'recipient-completed') {
      // DocuSign numbers an envelope's recipients from 1 in the order we gave them (docusign-provider.ts).
      const signer = await trx
        .selectFrom('envelope_recipients')
        .select('id')
        .where('envelope_id', '=', envelope.id)
        .where('position', '=', Number(recipientId) - 1)
        .executeTakeFirst();
      await tell(
        {
          kind: 'envelope.event',
          envelopeId: envelope.id,
          type: 'signed',
          recipientId: signer?.id ?? null,
          detail: reported,
        },
        trx,
      );
    }
    return moved ? 'moved' : 'kept';
  });
}
