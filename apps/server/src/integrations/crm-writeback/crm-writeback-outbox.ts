import type { WebhookEventType } from '@vertragsgenerator/domain';
import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WebhookDeliveriesTable } from '../../db/schema.js';
import { LeasedRuns, retryBackoffSeconds } from '../../shared/leased-runs.js';
import { sealedFileName } from '../../signature/seal/completion-mail.js';
import { newLease, stillLeased } from '../webhooks/delivery-lease.js';
import { GIVE_UP_AFTER_SECONDS } from '../webhooks/webhook-outbox.js';
import {
  CRM_STATUSES,
  type CrmWriteBack,
  CrmWritebackRefused,
  type CrmWriter,
  explainFailure,
  type Progress,
} from './crm-writer.js';

/** Longer than an attempt can take (four requests of up to CRM_TIMEOUT_MS and an upload of up to 120 s): a lease outlives the attempt holding it. */
const LEASE_SECONDS = 900;
/** What of an error is kept with the delivery and its attempt. */
const KEPT = 500;

type Leased = Selectable<WebhookDeliveriesTable>;

export interface CrmWritebackOutboxDeps {
  db: Db;
  writer: CrmWriter;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * Delivers the webhooks' events to the CRM: the deliveries with target `crm` in the webhooks' outbox.
 * Leased as the webhook deliveries are (one UPDATE … SKIP LOCKED, so one replica writes each), in
 * order per envelope (a delivery waits while an earlier one of its envelope is pending), retried with
 * growing pauses for three days. A refusal another attempt cannot change gives up at once. The
 * envelope's history tells what became of it: „Im CRM abgelegt“, „Noch nicht im CRM abgelegt“ with
 * the reason (once per reason), or „Vom CRM abgelehnt“ with the reason.
 */
export class CrmWritebackOutbox {
  private readonly runs = new LeasedRuns();
  private readonly log: NonNullable<CrmWritebackOutboxDeps['log']>;

  constructor(private readonly deps: CrmWritebackOutboxDeps) {
    this.log = deps.log ?? console;
  }

  /** Starts a run without waiting for it. */
  deliverSoon(): void {
    this.deliverDue().catch((error) => this.log.warn({ err: error }, 'CRM write-back run failed'));
  }

  /** Delivers every due write-back; `now` stands for the database's clock (tests). Returns how many arrived. */
  deliverDue(now?: Date): Promise<number> {
    return this.runs.track(this.deliver(now));
  }

  stop(): Promise<void> {
    return this.runs.stop();
  }

  private async deliver(now?: Date): Promise<number> {
    const at = now ? sql<Date>`${now}::timestamptz` : sql<Date>`now()`;
    return this.runs.eachLeased(
      () => this.lease(at),
      (leased) => this.attempt(leased, at, now),
    );
  }

  private lease(at: RawBuilder<Date>): Promise<Leased | undefined> {
    return this.deps.db
      .updateTable('webhook_deliveries')
      .set({
        attempts: sql`attempts + 1`,
        next_attempt_at: sql<Date>`${at} + make_interval(secs => ${LEASE_SECONDS})`,
        first_attempt_at: sql<Date>`coalesce(first_attempt_at, ${at})`,
        lease: newLease(),
      })
      .where('id', '=', (qb) =>
        qb
          .selectFrom('webhook_deliveries as d')
          .select('d.id')
          .where('d.target', '=', 'crm')
          .where('d.status', '=', 'pending')
          .where('d.next_attempt_at', '<=', at)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('webhook_deliveries as earlier')
                  .select('earlier.id')
                  .where('earlier.target', '=', 'crm')
                  .whereRef('earlier.ordering_key', '=', 'd.ordering_key')
                  .whereRef('earlier.id', '<', 'd.id')
                  // One given up does not hold back the later ones: the CRM still hears of them.
                  .where('earlier.status', '=', 'pending'),
              ),
            ),
          )
          .orderBy('d.id')
          .limit(1)
          .forUpdate('d')
          .skipLocked(),
      )
      .returningAll()
      .executeTakeFirst();
  }

  private async writeBack(delivery: Leased): Promise<CrmWriteBack | undefined> {
    const { db } = this.deps;
    const event = await db
      .selectFrom('webhook_events')
      .select(['type', 'payload', 'created_at'])
      .where('id', '=', delivery.event_id)
      .executeTakeFirst();
    if (!event) return undefined;
    const type = event.type as WebhookEventType;
    const payload = event.payload as {
      timestamp?: string;
      data?: { matchId?: string; envelopeId?: string; sealedPdf?: { sha256: string; url: string } };
    };
    const data = payload.data ?? {};
    const status = CRM_STATUSES[type];
    if (!status || !data.matchId) return undefined;
    // The CRM hears of status changes: a second signer's signature leaves it at „Teilweise unterschrieben“.
    if (delivery.ordering_key && (await this.previousStatus(delivery)) === status) return undefined;
    const envelopeId = data.envelopeId ?? null;
    // An envelope deleted meanwhile (a person's erasure, a deletion rule) has no history to tell.
    if (
      envelopeId &&
      !(await db.selectFrom('envelopes').select('id').where('id', '=', envelopeId).executeTakeFirst())
    )
      return undefined;
    return {
      id: `crm_${delivery.id}`,
      type,
      status,
      at: payload.timestamp ? new Date(payload.timestamp) : event.created_at,
      matchId: data.matchId,
      envelopeId,
      sealedPdf: data.sealedPdf ?? null,
      loadSealedPdf: async () => {
        const row = envelopeId
          ? await db
              .selectFrom('envelopes')
              .innerJoin('documents', 'documents.id', 'envelopes.document_id')
              .select(['envelopes.sealed_pdf', 'documents.file_name'])
              .where('envelopes.id', '=', envelopeId)
              .executeTakeFirst()
          : undefined;
        if (!row?.sealed_pdf)
          throw new CrmWritebackRefused(
            'Das versiegelte PDF ist nicht mehr gespeichert (nach einer Aufbewahrungsregel gelöscht).',
          );
        return { pdf: row.sealed_pdf, fileName: sealedFileName(row.file_name) };
      },
    };
  }

  /** The status the write-back before this one (of the same envelope) gave the CRM, if any. */
  private async previousStatus(delivery: Leased): Promise<string | undefined> {
    const previous = await this.deps.db
      .selectFrom('webhook_deliveries as earlier')
      .innerJoin('webhook_events', 'webhook_events.id', 'earlier.event_id')
      .select('webhook_events.type')
      .where('earlier.target', '=', 'crm')
      .where('earlier.ordering_key', '=', delivery.ordering_key)
      .where('earlier.id', '<', delivery.id)
      .orderBy('earlier.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return previous ? CRM_STATUSES[previous.type as WebhookEventType] : undefined;
  }

  /** One attempt at a leased write-back, and what follows from its outcome. */
  private async attempt(delivery: Leased, at: RawBuilder<Date>, now: Date | undefined): Promise<boolean> {
    const { db } = this.deps;
    const writeBack = await this.writeBack(delivery);
    // Nothing to write (its envelope was deleted meanwhile): done, so that it holds back nothing.
    if (!writeBack) {
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'delivered', delivered_at: now ?? new Date() })
        .where('id', '=', delivery.id)
        .where('lease', '=', delivery.lease)
        .execute();
      return false;
    }
    const save = async (progress: Progress) => {
      await db
        .updateTable('webhook_deliveries')
        .set({ progress: JSON.stringify(progress) })
        .where('id', '=', delivery.id)
        .execute();
    };
    const started = performance.now();
    let result: { done: string } | { final: boolean; reason: string };
    try {
      result = { done: await this.deps.writer.write(writeBack, delivery.progress ?? {}, save) };
    } catch (error) {
      result = explainFailure(error);
    }
    const durationMs = Math.round(performance.now() - started);
    const attemptAt = now ?? new Date();
    return db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: delivery.id,
          at: attemptAt,
          status_code: null,
          error: 'done' in result ? null : result.reason.slice(0, KEPT),
          duration_ms: durationMs,
        })
        .execute();
      // „Erneut senden“ while the CRM was answering, or an attempt that outlived its lease: the answer
      // stays among the attempts; the delivery's state is the newer attempt's to decide.
      if (!(await stillLeased(trx, delivery))) return false;
      const recordHistory = (type: 'crm_filed' | 'crm_pending' | 'crm_refused', detail: string) =>
        writeBack.envelopeId
          ? trx
              .insertInto('envelope_events')
              .values({ envelope_id: writeBack.envelopeId, recipient_id: null, type, actor: '', detail })
              .execute()
          : undefined;
      if ('done' in result) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'delivered', delivered_at: attemptAt, last_error: null })
          .where('id', '=', delivery.id)
          .execute();
        // The completion always; another status only when its history told it had not arrived yet.
        if (writeBack.type === 'envelope.completed' || delivery.last_error !== null)
          await recordHistory('crm_filed', `${result.done[0]?.toUpperCase()}${result.done.slice(1)}.`);
        return true;
      }
      const waited = (attemptAt.getTime() - (delivery.first_attempt_at ?? attemptAt).getTime()) / 1000;
      if (result.final || waited >= GIVE_UP_AFTER_SECONDS) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', last_error: result.reason.slice(0, KEPT) })
          .where('id', '=', delivery.id)
          .execute();
        await recordHistory(
          'crm_refused',
          `Status „${writeBack.status}“: ${result.reason}${result.final ? '' : ' Nach drei Tagen aufgegeben.'}`,
        );
        this.log.error(
          { deliveryId: delivery.id, matchId: writeBack.matchId, reason: result.reason },
          'CRM write-back given up',
        );
        return false;
      }
      await trx
        .updateTable('webhook_deliveries')
        .set({
          last_error: result.reason.slice(0, KEPT),
          next_attempt_at: sql<Date>`${at} + make_interval(secs => ${retryBackoffSeconds(delivery.attempts)})`,
        })
        .where('id', '=', delivery.id)
        .execute();
      // Once per reason: a CRM down for a day fills the history with one line, not with every attempt.
      if (delivery.last_error !== result.reason.slice(0, KEPT))
        await recordHistory(
          'crm_pending',
          `Status „${writeBack.status}“: ${result.reason} Wird erneut versucht.`,
        );
      this.log.warn(
        { deliveryId: delivery.id, attempts: delivery.attempts, reason: result.reason },
        'CRM write-back not delivered; retrying later',
      );
      return false;
    });
  }
}
