import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import type { Db } from '../../db/database.js';
import type { Database, WebhookDeliveriesTable } from '../../db/schema.js';
import type { OutgoingMail } from '../../mail/mail-outbox.js';
import { LeasedRuns, retryBackoffSeconds } from '../../shared/leased-runs.js';
import { newLease, stillLeased } from './delivery-lease.js';
import { ATTEMPT_DEADLINE_MS, type PostOutcome, postWebhook } from './webhook-post.js';

/** A delivery not received within this long is given up, and its endpoint marked failing. */
export const GIVE_UP_AFTER_SECONDS = 3 * 24 * 60 * 60;
/** Longer than an attempt's 10 s deadline: a lease outlives the attempt that holds it. */
const LEASE_SECONDS = 60;

/** The `webhook-id` of a delivery's event: the same on every attempt, so receivers can drop repeats. */
export const messageId = (eventId: string) => `msg_${eventId}`;

export interface WebhookOutboxDeps {
  db: Db;
  allowPrivateTargets: boolean;
  /** Queues the mail to administrators about a failing endpoint, in the transaction that marks it. */
  enqueueMail: (mails: OutgoingMail[], executor: Kysely<Database>) => Promise<void>;
  /** After such a mail was queued. */
  mailQueued?: () => void;
  /** The administrators named in the configuration, besides those of the database. */
  configuredAdministrators: ReadonlySet<string>;
  publicUrl: string;
  /** An attempt's deadline; default ATTEMPT_DEADLINE_MS (10 s). */
  deadlineMs?: number;
  log?: { warn(obj: object, msg: string): void };
}

type Leased = Selectable<WebhookDeliveriesTable>;

/**
 * Delivers webhook events from their outbox. Each due delivery is leased with one UPDATE … SKIP
 * LOCKED, so with any number of replicas every event reaches every endpoint once per attempt, and no
 * transaction stays open while a receiver answers. A delivery waits while an earlier one of the same
 * envelope to the same endpoint is not delivered: receivers see an envelope's events in order. A
 * failed attempt is tried again with growing pauses; after three days the delivery is given up, the
 * endpoint marked failing and the administrators mailed, once until it receives again.
 */
export class WebhookOutbox {
  private readonly runs = new LeasedRuns();
  private readonly log: { warn(obj: object, msg: string): void };

  constructor(private readonly deps: WebhookOutboxDeps) {
    this.log = deps.log ?? console;
  }

  /** Starts a run without waiting for it. */
  deliverSoon(): void {
    this.deliverDue().catch((error) => this.log.warn({ err: error }, 'webhook run failed'));
  }

  /** Delivers every due event; `now` stands for the database's clock (tests). Returns how many arrived. */
  deliverDue(now?: Date): Promise<number> {
    return this.runs.track(this.deliver(now));
  }

  /** Leases nothing more and waits for the attempts under way. */
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
          .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
          .select('d.id')
          .where('d.status', '=', 'pending')
          .where('e.active', '=', true)
          .where('d.next_attempt_at', '<=', at)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('webhook_deliveries as earlier')
                  .select('earlier.id')
                  .whereRef('earlier.endpoint_id', '=', 'd.endpoint_id')
                  .whereRef('earlier.ordering_key', '=', 'd.ordering_key')
                  .whereRef('earlier.id', '<', 'd.id')
                  .where('earlier.status', '!=', 'delivered'),
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

  /** One attempt at a leased delivery, and what follows from its outcome. */
  private async attempt(delivery: Leased, at: RawBuilder<Date>, now: Date | undefined): Promise<boolean> {
    const { db } = this.deps;
    const target = await db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
      .select(['webhook_endpoints.url', 'webhook_endpoints.secret', 'webhook_events.payload'])
      .where('webhook_deliveries.id', '=', delivery.id)
      .executeTakeFirst();
    // The endpoint was deleted meanwhile: its deliveries went with it.
    if (!target) return false;
    const body = JSON.stringify(target.payload);
    const id = messageId(delivery.event_id);
    // The receiver checks the timestamp against its own clock: it is the moment of sending, always.
    const sentAt = new Date();
    let outcome: PostOutcome;
    const started = performance.now();
    try {
      outcome = await postWebhook(
        new URL(target.url),
        body,
        {
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': new Webhook(target.secret).sign(id, sentAt, body),
        },
        {
          allowPrivate: this.deps.allowPrivateTargets,
          deadlineMs: this.deps.deadlineMs ?? ATTEMPT_DEADLINE_MS,
        },
      );
    } catch (error) {
      outcome = { statusCode: null, error: String((error as Error).message ?? error) };
    }
    const durationMs = Math.round(performance.now() - started);
    const attemptAt = now ?? sentAt;
    let mailed = false;
    const arrived = await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          delivery_id: delivery.id,
          at: attemptAt,
          status_code: outcome.statusCode,
          error: outcome.error?.slice(0, 500) ?? null,
          duration_ms: durationMs,
        })
        .execute();
      // Sent again while the receiver was answering („Erneut senden“ took the lease): the answer stays
      // in the history, and the delivery is left pending for the attempt that resend asked for.
      if (!(await stillLeased(trx, delivery))) return false;
      if (outcome.error === null) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'delivered', delivered_at: attemptAt, last_error: null })
          .where('id', '=', delivery.id)
          .execute();
        await trx
          .updateTable('webhook_endpoints')
          .set({ failing_since: null })
          .where('id', '=', delivery.endpoint_id)
          .execute();
        return true;
      }
      const firstAttempt = delivery.first_attempt_at ?? attemptAt;
      const waited = (attemptAt.getTime() - firstAttempt.getTime()) / 1000;
      if (waited >= GIVE_UP_AFTER_SECONDS) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', last_error: outcome.error.slice(0, 500) })
          .where('id', '=', delivery.id)
          .execute();
        mailed = await this.markFailing(delivery.endpoint_id, target.url, attemptAt, outcome.error, trx);
        return false;
      }
      const backoff = retryBackoffSeconds(delivery.attempts);
      await trx
        .updateTable('webhook_deliveries')
        .set({
          last_error: outcome.error.slice(0, 500),
          next_attempt_at: sql<Date>`${at} + make_interval(secs => ${backoff})`,
        })
        .where('id', '=', delivery.id)
        .execute();
      this.log.warn(
        { deliveryId: delivery.id, attempts: delivery.attempts, error: outcome.error },
        'webhook not delivered; retrying later',
      );
      return false;
    });
    if (mailed) this.deps.mailQueued?.();
    return arrived;
  }

  /** Marks the endpoint failing; the first time, the administrators are mailed (true). */
  private async markFailing(
    endpointId: string,
    url: string,
    at: Date,
    error: string,
    trx: Kysely<Database>,
  ): Promise<boolean> {
    const { numUpdatedRows } = await trx
      .updateTable('webhook_endpoints')
      .set({ failing_since: at })
      .where('id', '=', endpointId)
      .where('failing_since', 'is', null)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) return false;
    const rows = await trx.selectFrom('users').select('email').where('administrator', '=', true).execute();
    const recipients = [...new Set([...this.deps.configuredAdministrators, ...rows.map((r) => r.email)])];
    await this.deps.enqueueMail(
      recipients.map((to) => ({
        to,
        subject: `[Vertragsgenerator] Webhook-Empfänger antwortet nicht: ${url}`,
        text: [
          `Der Webhook-Empfänger ${url} hat ein Ereignis drei Tage lang nicht angenommen.`,
          `Letzter Fehler: ${error}`,
          '',
          'Der Empfänger ist jetzt als fehlerhaft markiert. Spätere Ereignisse desselben Umschlags warten, bis',
          'das aufgegebene Ereignis zugestellt ist: Unter Verwaltung → Integrationen lässt es sich mit',
          '„Erneut senden" noch einmal zustellen, sobald der Empfänger wieder erreichbar ist.',
          '',
          `${this.deps.publicUrl}/verwaltung`,
        ].join('\n'),
        reference: `webhook_endpoint:${endpointId}`,
      })),
      trx,
    );
    return true;
  }
}
