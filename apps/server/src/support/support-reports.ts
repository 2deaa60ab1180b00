import type { SupportReport } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import type { MailOutbox } from '../mail/mail-outbox.js';

export interface Reporter {
  email: string;
  name: string;
}

/**
 * "Problem melden": the report is stored together with its mail to the support mailbox in one
 * transaction; the mail outbox delivers it, retrying while SMTP is down.
 */
export class SupportReports {
  constructor(
    private readonly db: Db,
    private readonly outbox: MailOutbox,
  ) {}

  async submit(report: SupportReport, reporter: Reporter): Promise<number> {
    const id = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('support_reports')
        .values({
          reporter_email: reporter.email,
          reporter_name: reporter.name,
          subject: report.subject,
          body: report.msgBody,
          match_id: report.matchId || null,
        })
        .returning(['id', 'created_at'])
        .executeTakeFirstOrThrow();
      await this.outbox.enqueue(
        [
          {
            to: null,
            replyTo: reporter.email,
            subject: `[Vertragsgenerator] Problem gemeldet: ${report.subject}`,
            text: [
              `${reporter.name} <${reporter.email}> hat ein Problem gemeldet.`,
              '',
              `Betreff: ${report.subject}`,
              `Match-ID: ${report.matchId || '–'}`,
              `Gemeldet am: ${row.created_at.toISOString()}`,
              `Meldung Nr.: ${row.id}`,
              '',
              report.msgBody,
            ].join('\n'),
            reference: `support_report:${row.id}`,
          },
        ],
        trx,
      );
      return row.id;
    });
    this.outbox.deliverSoon();
    return id;
  }
}
