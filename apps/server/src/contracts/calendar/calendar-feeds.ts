import { randomBytes } from 'node:crypto';
import {
  type CalendarFeedCreated,
  type CalendarFeedState,
  isPermissionLevel,
} from '@vertragsgenerator/domain';
import ical, { ICalCalendarMethod } from 'ical-generator';
import { type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { notFound } from '../../shared/http-error.js';
import { sha256Hex } from '../../shared/sha256.js';
import { addDaysIso, readsEveryContract, todayIso } from '../contract-queries.js';
import { calendarDateOfIso } from '../contract-terms.js';
import { contractLines, DEADLINE_TITLES, type DeadlineKind, germanDay } from '../reminders/reminder-mails.js';
import { stillRunning } from '../reminders/running-contracts.js';

/** The start of every subscribe token: tells it apart from other tokens in a log or a support mail. */
export const CALENDAR_TOKEN_PREFIX = 'vgcal_';
/** A token as the feed's path takes it: the prefix and 32 random bytes in base64url. */
export const CALENDAR_TOKEN_PATTERN = /^vgcal_[A-Za-z0-9_-]{43}$/;

/** The feed names deadlines from this many days ago … */
export const FEED_DAYS_BACK = 30;
/** … to this many days ahead (two years). */
export const FEED_DAYS_AHEAD = 730;
/** At most this many records per feed: a calendar application would choke on more. */
const FEED_MAX_RECORDS = 5000;

export const FEED_NOT_FOUND =
  'Diesen Kalender gibt es nicht (mehr). Erstelle unter Verträge einen neuen Link zum Abonnieren.';

/** The owner of a subscribe link, as the staff directory names them. */
export interface FeedOwner {
  email: string;
}

/**
 * The personal calendar of contract deadlines (iCalendar), for Outlook or Google Calendar to subscribe
 * to: one secret link per user, made (and replaced) by the user, answered once, revocable; only its
 * SHA-256 is stored, as with the API clients' tokens. The feed answers the deadlines the link's owner
 * may see on /vertraege as of the day it is fetched: legal staff and leaders every contract's, a
 * consultant those of their deals. A user who leaves the staff directory takes their link with them.
 */
export class CalendarFeeds {
  constructor(
    private readonly db: Db,
    /** PUBLIC_URL: where the feed and the records are reached. */
    private readonly publicUrl: string,
  ) {}

  async state(owner: FeedOwner): Promise<CalendarFeedState> {
    const row = await this.db
      .selectFrom('calendar_feeds')
      .select('created_at')
      .where('user_email', '=', owner.email)
      .executeTakeFirst();
    return { exists: row !== undefined, createdAt: row ? row.created_at.toISOString() : null };
  }

  /** A new link; an older one of the same user stops working at once. */
  async create(owner: FeedOwner, now: Date): Promise<CalendarFeedCreated> {
    const token = CALENDAR_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const values = { token_hash: sha256Hex(token), created_at: now };
    await this.db
      .insertInto('calendar_feeds')
      .values({ user_email: owner.email, ...values })
      .onConflict((oc) => oc.column('user_email').doUpdateSet(values))
      .execute();
    return { url: `${this.publicUrl}/backend/calendar/${token}.ics`, createdAt: now.toISOString() };
  }

  /** Revokes the user's link; revoking when there is none changes nothing. */
  async revoke(owner: FeedOwner): Promise<void> {
    await this.db.deleteFrom('calendar_feeds').where('user_email', '=', owner.email).execute();
  }

  /** The iCalendar text of a link; 404 for a token that is malformed, unknown or revoked. */
  async feed(token: string, now: Date): Promise<string> {
    if (!CALENDAR_TOKEN_PATTERN.test(token)) throw notFound(FEED_NOT_FOUND);
    const owner = await this.db
      .selectFrom('calendar_feeds as f')
      .innerJoin('users as u', 'u.email', 'f.user_email')
      .select(['u.name', 'u.permission'])
      .where('f.token_hash', '=', sha256Hex(token))
      .executeTakeFirst();
    // Without a level the user sees no contracts on /vertraege: the link answers as if it were revoked.
    if (!owner || !isPermissionLevel(owner.permission)) throw notFound(FEED_NOT_FOUND);
    const reader = { name: owner.name, permission: owner.permission };
    const today = todayIso(now);
    const from = addDaysIso(today, -FEED_DAYS_BACK);
    const to = addDaysIso(today, FEED_DAYS_AHEAD);
    const within = (column: 'c.end_date' | 'c.last_notice_day') =>
      sql<SqlBool>`${sql.ref(column)} between ${from} and ${to}`;
    let query = this.db
      .selectFrom('contract_records as c')
      .select([
        'c.id',
        'c.match_id',
        'c.kind',
        'c.company',
        'c.partner_type',
        'c.counterparty',
        'c.customer',
        'c.consultant',
        'c.end_date',
        'c.last_notice_day',
        'c.notice_text',
      ])
      .where(stillRunning())
      .where((eb) => eb.or([within('c.end_date'), within('c.last_notice_day')]));
    if (!readsEveryContract(reader))
      query = query.where(sql<SqlBool>`lower(trim(c.consultant)) = ${reader.name.trim().toLowerCase()}`);
    const records = await query
      .orderBy(sql`least(c.last_notice_day, c.end_date)`)
      .orderBy('c.id')
      .limit(FEED_MAX_RECORDS)
      .execute();

    const calendar = ical({
      name: 'Vertragsfristen',
      description: 'Kündigungsfristen und Vertragsenden aus dem Vertragsgenerator',
      prodId: { company: 'Vertragsgenerator', product: 'Vertragsfristen', language: 'DE' },
      method: ICalCalendarMethod.PUBLISH,
      // Calendar applications that honour it fetch again after an hour.
      ttl: 60 * 60,
    });
    const host = new URL(this.publicUrl).host;
    for (const record of records) {
      const deadlines: [DeadlineKind, string | null][] = [
        ['notice', record.last_notice_day],
        ['end', record.end_date],
      ];
      for (const [kind, day] of deadlines) {
        if (!day || day < from || day > to) continue;
        const { year, month, day: dayOfMonth } = calendarDateOfIso(day);
        const start = new Date(Date.UTC(year, month - 1, dayOfMonth));
        const url = `${this.publicUrl}/vertraege/${record.id}`;
        calendar.createEvent({
          // Stable per record and deadline: a moved deadline moves the event instead of adding one.
          id: `${record.id}-${kind}@${host}`,
          allDay: true,
          start,
          end: new Date(start.getTime() + 86_400_000),
          stamp: now,
          summary: `${DEADLINE_TITLES[kind]}: ${record.match_id} ${record.counterparty}`,
          description: [
            `${DEADLINE_TITLES[kind]} am ${germanDay(day)}`,
            ...contractLines(record),
            '',
            `Zum Vertrag: ${url}`,
          ].join('\n'),
          url,
        });
      }
    }
    return calendar.toString();
  }
}
