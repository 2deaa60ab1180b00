import { type QueryExecutorProvider, type RawBuilder, type Selectable, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { OutgoingMailTable } from '../db/schema.js';
import { LeasedRuns, retryBackoffSeconds } from '../shared/leased-runs.js';
import type { Mailer, MailMessage } from './mailer.js';

/**
 * A message to queue; `to: null` is the support mailbox (SUPPORT_EMAIL). `secret`: its text holds a
 * one-time code, which is not kept once the mail is delivered.
 */
export type OutgoingMail = Omit<MailMessage, 'to'> & {
  to: string | null;
  reference?: string;
  secret?: boolean;
};

/** What a secret mail's stored text becomes once it is delivered. */
export const DELIVERED_SECRET_BODY =
  'Diese Nachricht enthielt einen Einmal-Code; ihr Text wurde nach dem Versand gelöscht.';

type Executor = Pick<Db, 'insertInto'>;
/** A queued mail as its lease answers it. */
type LeasedMail = Selectable<OutgoingMailTable>;

/** Longer than the SMTP timeouts: a lease outlives any send attempt. */
const LEASE_SECONDS = 5 * 60;

/** The mail not yet delivered, and how long the oldest of it waits (0 when none does). */
export async function waitingMail(db: Db): Promise<{ waiting: number; oldestSeconds: number }> {
  const row = await db
    .selectFrom('outgoing_mail')
    .select([
      sql<string>`count(*)`.as('waiting'),
      sql<number | null>`extract(epoch from now() - min(created_at))`.as('oldest'),
    ])
    .where('sent_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { waiting: Number(row.waiting), oldestSeconds: Number(row.oldest ?? 0) };
}

/**
 * Every e-mail is stored first (in the caller's transaction, with what caused it), then mailed; a
 * failed delivery stays queued and is retried with growing pauses until it goes out, so nothing is
 * lost while SMTP is down.
 */
export class MailOutbox {
  /** Delivery runs under way, so that a stop can wait for them. */
  private readonly runs = new LeasedRuns();

  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly supportEmail: string,
    private readonly log: { warn(obj: object, msg: string): void } = console,
  ) {}

  /** Queues messages; pass a transaction to store them together with what caused them. */
  async enqueue(messages: OutgoingMail[], executor: Executor = this.db): Promise<void> {
    if (messages.length === 0) return;
    await executor
      .insertInto('outgoing_mail')
      .values(
        messages.map((message) => ({
          recipient: message.to,
          reply_to: message.replyTo ?? null,
          subject: message.subject,
          body: message.text,
          attachments: JSON.stringify(
            (message.attachments ?? []).map((a) => ({
              filename: a.filename,
              contentType: a.contentType,
              content: Buffer.from(a.content).toString('base64'),
            })),
          ),
          reference: message.reference ?? null,
          secret: message.secret ?? false,
        })),
      )
      .execute();
  }

  /**
   * Holds back the undelivered mails of `reference` so that a mail server is not flooded: the first is
   * due at `from`, each next one `everySeconds` later (a batch spreads its invitations so). Returns how
   * many mails it holds.
   */
  async spread(
    reference: string,
    from: RawBuilder<Date>,
    everySeconds: number,
    executor: QueryExecutorProvider,
  ): Promise<number> {
    const { rows } = await sql<{ id: string }>`
      update outgoing_mail set next_attempt_at = ${from} + make_interval(secs => ${everySeconds}::float8 * (due.n - 1))
      from (
        select id, row_number() over (order by id) as n from outgoing_mail
        where reference = ${reference} and sent_at is null
      ) as due
      where outgoing_mail.id = due.id
      returning outgoing_mail.id`.execute(executor);
    return rows.length;
  }

  /** Starts a delivery run without waiting for it: the caller's answer does not wait for SMTP. */
  deliverSoon(): void {
    this.deliverDue().catch((error) => this.log.warn({ err: error }, 'mail outbox run failed'));
  }

  /**
   * Mails every due message. Each is first leased with one UPDATE … SKIP LOCKED, so several server
   * processes never send the same message at once, and no transaction stays open while the mail
   * server answers (the embedded database has a single connection). A process that dies mid-send
   * leaves the lease to expire, and the message goes out later. Returns how many went out.
   */
  deliverDue(now?: Date): Promise<number> {
    return this.runs.track(this.deliver(now));
  }

  /**
   * For a stop: leases no further mail and waits until the runs under way have finished the mail they
   * hold, delivered or given back with its next attempt set. So no lease is left to expire, and no
   * mail is cut off in the middle of its SMTP exchange.
   */
  stop(): Promise<void> {
    return this.runs.stop();
  }

  private deliver(now?: Date): Promise<number> {
    // The database's clock, not this process's: replicas and the insert's default agree on "due".
    const at = now ? sql<Date>`${now}::timestamptz` : sql<Date>`now()`;
    return this.runs.eachLeased(
      () => this.lease(at),
      (mail) => this.sendOrPostpone(mail, at),
    );
  }

  /** Sends one leased mail; a failure is recorded, and the mail is tried again after a pause. */
  private async sendOrPostpone(mail: LeasedMail, at: RawBuilder<Date>): Promise<boolean> {
    try {
      await this.mailer.send({
        to: mail.recipient ?? this.supportEmail,
        ...(mail.reply_to ? { replyTo: mail.reply_to } : {}),
        subject: mail.subject,
        text: mail.body,
        attachments: mail.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.from(a.content, 'base64'),
        })),
      });
      await this.db
        .updateTable('outgoing_mail')
        .set({
          sent_at: new Date(),
          last_error: null,
          ...(mail.secret ? { body: DELIVERED_SECRET_BODY } : {}),
        })
        .where('id', '=', mail.id)
        .execute();
      return true;
    } catch (error) {
      const backoff = retryBackoffSeconds(mail.attempts);
      this.log.warn(
        { err: error, mailId: mail.id, reference: mail.reference, attempts: mail.attempts },
        'mail not delivered; retrying later',
      );
      await this.db
        .updateTable('outgoing_mail')
        .set({
          last_error: String((error as Error).message ?? error).slice(0, 500),
          next_attempt_at: sql<Date>`${at} + make_interval(secs => ${backoff})`,
        })
        .where('id', '=', mail.id)
        .execute();
      return false;
    }
  }

  private lease(at: RawBuilder<Date>) {
    return this.db
      .updateTable('outgoing_mail')
      .set({
        attempts: sql`attempts + 1`,
        next_attempt_at: sql<Date>`${at} + make_interval(secs => ${LEASE_SECONDS})`,
      })
      .where('id', '=', (qb) =>
        qb
          .selectFrom('outgoing_mail')
          .select('id')
          .where('sent_at', 'is', null)
          .where('next_attempt_at', '<=', at)
          .orderBy('id')
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .executeTakeFirst();
  }
}
