import { COMPANIES } from '@vertragsgenerator/domain';
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { MailOutbox } from '../../mail/mail-outbox.js';
import { LeasedRuns } from '../../shared/leased-runs.js';
import type { EventSink } from '../../shared/product-events.js';
import { addDaysIso, todayIso } from '../contract-queries.js';
import { calendarDateOfIso } from '../contract-terms.js';
import { type DeadlineKind, deadlineReminderMail, germanDay, type RecordForMail } from './reminder-mails.js';
import type { ContractReminderSettings, LeadTimes } from './reminder-settings.js';
import { stillRunning } from './running-contracts.js';

type Executor = Kysely<Database>;
type ReminderKind = DeadlineKind | 'ended';

/** Candidates read per query: each one's reminder then commits in a short transaction of its own. */
const BATCH = 100;
/**
 * A contract whose end passed longer ago than this is not announced as ended any more: the first run
 * after the update does not report every contract that ended before it, and a run that was down for a
 * few weeks still catches up.
 */
export const ENDED_WINDOW_DAYS = 30;

/** What a history entry of the record says a run did. */
const EVENT_TYPES: Record<ReminderKind, string> = {
  notice: 'notice_reminder',
  end: 'end_reminder',
  ended: 'ended',
};

export interface ContractRemindersDeps {
  db: Db;
  outbox: MailOutbox;
  settings: ContractReminderSettings;
  /** `contract.deadline_approaching` and `contract.ended` (the webhooks), in the reminder's transaction. */
  events?: EventSink<Executor>;
  /** PUBLIC_URL: the mails link to `/vertraege/<id>`. */
  publicUrl: string;
  log?: { warn(obj: object, msg: string): void };
}

/** What a run did: reminders and end announcements made, and contracts it could not handle this time. */
export interface ReminderRunResult {
  reminded: number;
  ended: number;
  failed: number;
}

/** The day a reminder of `kind` is about, as a column of the record. */
const dayColumn = (kind: ReminderKind) =>
  kind === 'notice' ? sql.ref('c.last_notice_day') : sql.ref('c.end_date');

/** Whether the record's deadline of `kind` is due for its reminder on `today`. */
function dueSql(kind: ReminderKind, today: string, lead: Record<string, LeadTimes>) {
  const day = dayColumn(kind);
  if (kind === 'ended')
    return sql<SqlBool>`${day} < ${today} and ${day} >= ${addDaysIso(today, -ENDED_WINDOW_DAYS)}`;
  // Within the company's lead time, the deadline itself included, not yet passed.
  const limits = COMPANIES.map((company) => {
    const days = kind === 'notice' ? lead[company]?.noticeDays : lead[company]?.endDays;
    return sql<SqlBool>`(c.company = ${company} and ${day} <= ${addDaysIso(today, days ?? 0)})`;
  });
  return sql<SqlBool>`${day} >= ${today} and (${sql.join(limits, sql` or `)})`;
}

const notYetSent = (kind: ReminderKind) =>
  sql<SqlBool>`not exists (
    select 1 from contract_reminders r where r.contract_id = c.id and r.kind = ${kind} and r.day = ${dayColumn(kind)})`;

const daysBetween = (from: string, to: string) => {
  const utc = (iso: string) => {
    const { year, month, day } = calendarDateOfIso(iso);
    return Date.UTC(year, month - 1, day);
  };
  return Math.round((utc(to) - utc(from)) / 86_400_000);
};

/**
 * Reminds of running contracts' deadlines: when a contract's last day to give notice, or its end, comes
 * within its company's lead time (Europe/Berlin days), its consultant (by name in the staff directory)
 * and every member of legal staff get a mail, the record a history entry and the webhooks
 * `contract.deadline_approaching`; once its end has passed, `contract.ended` and a history entry.
 *
 * Each contract's reminder commits on its own with a row of `contract_reminders` that is unique per
 * contract, deadline kind and day, with its mail queued in the outbox, its history entry and its
 * event: several replicas running at once, or a run cut short and started again, send each reminder
 * once. The record is locked FOR UPDATE SKIP LOCKED while its reminder is written, so two replicas
 * share the work rather than wait for each other; candidates are read in batches, so no statement
 * holds the database long.
 */
export class ContractReminders {
  private readonly runs = new LeasedRuns();

  constructor(private readonly deps: ContractRemindersDeps) {}

  /**
   * Sends what is due as of `now`. A contract that fails is left for the next run and the others go
   * on; the run then rejects, naming how many failed.
   */
  run(now: Date = new Date()): Promise<ReminderRunResult> {
    return this.runs.track(this.sweep(now));
  }

  /** Takes no further contract and waits for the one in hand. */
  stop(): Promise<void> {
    return this.runs.stop();
  }

  private async sweep(now: Date): Promise<ReminderRunResult> {
    const today = todayIso(now);
    const lead = await this.deps.settings.leadTimes();
    const result: ReminderRunResult = { reminded: 0, ended: 0, failed: 0 };
    let firstError: unknown;
    for (const kind of ['notice', 'end', 'ended'] as const) {
      // Keyset over (day, id): a contract another replica holds, or one that failed, is not read again
      // by this run, so it ends.
      let after: { day: string; id: string } | undefined;
      for (;;) {
        if (this.runs.stopping) return result;
        const batch = await this.candidates(kind, today, lead, after);
        for (const candidate of batch) {
          if (this.runs.stopping) return result;
          try {
            if (await this.remind(kind, candidate.id, today, lead)) {
              if (kind === 'ended') result.ended++;
              else result.reminded++;
            }
          } catch (error) {
            result.failed++;
            firstError ??= error;
            this.deps.log?.warn({ err: error, contractId: candidate.id, kind }, 'contract reminder failed');
          }
        }
        const last = batch.at(-1);
        if (batch.length < BATCH || !last) break;
        after = last;
      }
    }
    if (result.reminded > 0) this.deps.outbox.deliverSoon();
    if (firstError !== undefined)
      throw new Error(`${result.failed} contract reminder(s) failed; the next run tries them again`, {
        cause: firstError,
      });
    return result;
  }

  private async candidates(
    kind: ReminderKind,
    today: string,
    lead: Record<string, LeadTimes>,
    after: { day: string; id: string } | undefined,
  ): Promise<{ id: string; day: string }[]> {
    const day = dayColumn(kind);
    const rows = await this.deps.db
      .selectFrom('contract_records as c')
      .select(['c.id', sql<string>`${day}`.as('day')])
      .where(dueSql(kind, today, lead))
      .where(stillRunning())
      .where(notYetSent(kind))
      .$if(after !== undefined, (q) =>
        q.where(sql<SqlBool>`(${day}, c.id) > (${after?.day}, ${after?.id}::uuid)`),
      )
      .orderBy(day)
      .orderBy('c.id')
      .limit(BATCH)
      .execute();
    return rows;
  }

  /** One contract's reminder (or end), in a transaction of its own; false when it is not (or no longer) due. */
  private remind(kind: ReminderKind, id: string, today: string, lead: Record<string, LeadTimes>) {
    const { db, outbox, events, publicUrl } = this.deps;
    return db.transaction().execute(async (trx) => {
      // Read again under the lock: an extension signed meanwhile, or another replica's reminder.
      const record = await trx
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
        .where('c.id', '=', id)
        .where(dueSql(kind, today, lead))
        .where(stillRunning())
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      const day = record && (kind === 'notice' ? record.last_notice_day : record.end_date);
      if (!record || !day) return false;
      const inserted = await trx
        .insertInto('contract_reminders')
        .values({ contract_id: id, kind, day })
        .onConflict((conflict) => conflict.doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) return false;
      if (kind === 'ended') {
        await trx
          .insertInto('contract_events')
          .values({
            contract_id: id,
            type: EVENT_TYPES.ended,
            actor: '',
            detail: `Vertrag am ${germanDay(day)} beendet`,
          })
          .execute();
        await events?.record({ kind: 'contract.event', contractId: id, type: 'ended' }, trx);
        return true;
      }
      const recipients = await this.recipients(trx, record.consultant);
      const deadline = { kind, day, daysLeft: daysBetween(today, day) };
      await outbox.enqueue(
        recipients.map((to) => deadlineReminderMail(record as RecordForMail, deadline, to, publicUrl)),
        trx,
      );
      const what = kind === 'notice' ? 'die Kündigungsfrist' : 'das Vertragsende';
      await trx
        .insertInto('contract_events')
        .values({
          contract_id: id,
          type: EVENT_TYPES[kind],
          actor: '',
          detail:
            recipients.length > 0
              ? `Erinnerung an ${what} am ${germanDay(day)} an ${recipients.join(', ')}`
              : `Erinnerung an ${what} am ${germanDay(day)}: niemand im Personalverzeichnis zu benachrichtigen`,
        })
        .execute();
      await events?.record(
        { kind: 'contract.event', contractId: id, type: 'deadline_approaching', deadline: { kind, day } },
        trx,
      );
      return true;
    });
  }

  /**
   * Who is mailed: the deal's consultant — every colleague with a level whose name in the staff
   * directory is the record's consultant (those who see it on /vertraege) — and every member of legal
   * staff; each address once.
   */
  private async recipients(trx: Executor, consultant: string): Promise<string[]> {
    const rows = await trx
      .selectFrom('users')
      .select('email')
      .where((eb) =>
        eb.or([
          eb('permission', '=', 2),
          eb.and([
            eb('permission', 'is not', null),
            sql<SqlBool>`lower(trim(name)) = ${consultant.trim().toLowerCase()}`,
            sql<SqlBool>`${consultant.trim()} <> ''`,
          ]),
        ]),
      )
      // The consultant first, then legal staff.
      .orderBy(sql`case when lower(trim(name)) = ${consultant.trim().toLowerCase()} then 0 else 1 end`)
      .orderBy('email')
      .execute();
    return [...new Set(rows.map((row) => row.email))];
  }
}
