import type { SupportReport } from '@vertragsgenerator/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';

export interface Reporter {
  email: string;
  name: string;
}

const MAX_BACKOFF_SECONDS = 60 * 60;
/** Longer than the SMTP timeouts: a lease outlives any send attempt. */
const LEASE_SECONDS = 5 * 60;

/**
 * Support reports are stored before anything can fail, then mailed; a failed delivery stays queued and
 * is retried with growing pauses until it goes out (nothing is lost when SMTP is down).
 */
export class SupportOutbox {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly supportEmail: string,
    private readonly log: { warn(obj: object, msg: string): void } = console,
  ) {}

  async submit(report: SupportReport, reporter: Reporter): Promise<number> {
    const { id } = await this.db
      .insertInto('support_reports')
      .values({
        reporter_email: reporter.email,
        reporter_name: reporter.name,
        subject: report.subject,
        body: report.msgBody,
        match_id: report.matchId || null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /**
   * Mails every due report. Each is first leased with one UPDATE … SKIP LOCKED, so several server
   * processes never send the same report at once, and no transaction stays open while the mail server
   * answers (the embedded database has a single connection). A process that dies mid-send leaves the
   * lease to expire, and the report goes out later. Returns how many went out.
   */
  async deliverDue(now?: Date): Promise<number> {
    // The database's clock, not this process's: replicas and the insert's default agree on "due".
    const at = now ? sql<Date>`${now}::timestamptz` : sql<Date>`now()`;
    let delivered = 0;
    for (;;) {
      const report = await this.lease(at);
      if (!report) return delivered;
      try {
        await this.mailer.send({
          to: this.supportEmail,
          replyTo: report.reporter_email,
          subject: `[Vertragsgenerator] Problem gemeldet: ${report.subject}`,
          text: [
            `${report.reporter_name} <${report.reporter_email}> hat ein Problem gemeldet.`,
            '',
            `Betreff: ${report.subject}`,
            `Match-ID: ${report.match_id ?? '–'}`,
            `Gemeldet am: ${report.created_at.toISOString()}`,
            `Meldung Nr.: ${report.id}`,
            '',
            report.body,
          ].join('\n'),
        });
        await this.db
          .updateTable('support_reports')
          .set({ mailed_at: new Date(), last_error: null })
          .where('id', '=', report.id)
          .execute();
        delivered++;
      } catch (error) {
        const backoff = Math.min(30 * 2 ** (report.attempts - 1), MAX_BACKOFF_SECONDS);
        this.log.warn(
          { err: error, reportId: report.id, attempts: report.attempts },
          'support mail not delivered; retrying later',
        );
        await this.db
          .updateTable('support_reports')
          .set({
            last_error: String((error as Error).message ?? error).slice(0, 500),
            next_attempt_at: sql<Date>`${at} + make_interval(secs => ${backoff})`,
          })
          .where('id', '=', report.id)
          .execute();
      }
    }
  }

  private lease(at: RawBuilder<Date>) {
    return this.db
      .updateTable('support_reports')
      .set({
        attempts: sql`attempts + 1`,
        next_attempt_at: sql<Date>`${at} + make_interval(secs => ${LEASE_SECONDS})`,
      })
      .where('id', '=', (qb) =>
        qb
          .selectFrom('support_reports')
          .select('id')
          .where('mailed_at', 'is', null)
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
