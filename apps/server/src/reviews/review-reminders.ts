import { REVIEW_REMINDER_DAYS_BEFORE } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import type { MailOutbox } from '../mail/mail-outbox.js';
import type { ReviewLinks } from './review-links.js';
import { reviewReminderMail, roundForMail } from './review-mails.js';

const DAY_MS = 86_400_000;
/** Berlin's calendar day of an instant, as `YYYY-MM-DD`. */
const BERLIN_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' });

/**
 * Reminds each reviewer of a round still out, once, REVIEW_REMINDER_DAYS_BEFORE days before its due date
 * (Berlin's day). Every replica runs it; the reviewers are taken under `FOR UPDATE SKIP LOCKED`, and the
 * mail and the mark that it went out commit together: each is reminded once.
 */
export async function remindReviewers(
  deps: { db: Db; outbox: MailOutbox; links: ReviewLinks },
  now: Date,
): Promise<number> {
  const { db, outbox, links } = deps;
  const remindFrom = BERLIN_DAY.format(new Date(now.getTime() + REVIEW_REMINDER_DAYS_BEFORE * DAY_MS));
  const reminded = await db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('review_reviewers as p')
      .innerJoin('review_rounds as o', 'o.id', 'p.round_id')
      .innerJoin('reviews as r', 'r.id', 'o.review_id')
      .innerJoin('documents as d', 'd.id', 'r.document_id')
      .select([
        'p.id',
        'p.name',
        'p.email',
        'p.link_generation',
        'r.id as review_id',
        'r.language',
        'd.file_name',
        'o.sent_by',
        'o.sent_by_name',
        'o.message',
        'o.due_date',
        'o.number',
      ])
      .where('o.state', '=', 'sent')
      .where('r.state', '=', 'open')
      .where('p.reminded_at', 'is', null)
      .where('p.withdrawn_at', 'is', null)
      .where('p.token_expires_at', '>', now)
      .where('o.due_date', '<=', remindFrom)
      .where('o.due_date', '>=', BERLIN_DAY.format(now))
      .limit(100)
      .forUpdate('p')
      .skipLocked()
      .execute();
    if (due.length === 0) return 0;
    await outbox.enqueue(
      due.map((row) =>
        reviewReminderMail(
          roundForMail({ id: row.review_id, language: row.language }, row, row.file_name ?? 'Vertrag.docx'),
          row,
          links.current(row),
        ),
      ),
      trx,
    );
    await trx
      .updateTable('review_reviewers')
      .set({ reminded_at: now })
      .where(
        'id',
        'in',
        due.map((row) => row.id),
      )
      .execute();
    return due.length;
  });
  if (reminded > 0) outbox.deliverSoon();
  return reminded;
}
