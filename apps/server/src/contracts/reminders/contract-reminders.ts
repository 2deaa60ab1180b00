import { COMPANIES } from '@vertragsgenerator/domain';
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { MailOutbox, OutgoingMail } from '../../mail/mail-outbox.js';
import { LeasedRuns } from '../../shared/leased-runs.js';
import type { EventSink } from '../../shared/product-events.js';
import { addDaysIso, todayIso } from '../contract-queries.js';
import { calendarDateOfIso } from '../contract-terms.js';
import { type DeadlineKind, deadlineReminderMail, germanDay, type RecordForMail } from './reminder-mails.js';
import type { ContractReminderSettings, LeadTimes } from './reminder-settings.js';
import { stillRunning } from './running-contracts.js';

type Executor = Kysely<Database>;
type ReminderKind = DeadlineKind | 'ended';

/**
 * Candidates read per query, and reminders written per transaction: a hundred contracts' reminders commit
 * together in a few statements (one per table), so a backlog of thousands is a matter of seconds and no
 * transaction holds the database for long.
 */
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
 * A contract's reminder commits with a row of `contract_reminders` that is unique per contract, deadline
 * kind and day, with its mail queued in the outbox, its history entry and its event: several replicas
 * running at once, or a run cut short and started again, send each reminder once. Reminders are written
 * a batch per transaction, the records locked FOR UPDATE SKIP LOCKED, so two replicas share the work
 * rather than wait for each other and no transaction holds the database long; a batch that fails is
 * written again one contract at a time, so only the contract at fault waits for the next run.
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

  /** Takes no further batch and waits for the one in hand. */
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
        if (this.runs.stopping) return result;
        const outcome = await this.remindAll(
          kind,
          batch.map((candidate) => candidate.id),
          today,
          lead,
        );
        if (kind === 'ended') result.ended += outcome.done;
        else result.reminded += outcome.done;
        result.failed += outcome.failed.length;
        for (const { id, error } of outcome.failed) {
          firstError ??= error;
          this.deps.log?.warn({ err: error, contractId: id, kind }, 'contract reminder failed');
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

  /**
   * The batch's reminders in one transaction. Should it fail, each contract is tried again in a
   * transaction of its own, so one that cannot be handled (its webhook, a lost connection) is left for
   * the next run and does not hold back the others.
   */
  private async remindAll(
    kind: ReminderKind,
    ids: string[],
    today: string,
    lead: Record<string, LeadTimes>,
  ): Promise<{ done: number; failed: { id: string; error: unknown }[] }> {
    if (ids.length === 0) return { done: 0, failed: [] };
    try {
      return { done: await this.remind(kind, ids, today, lead), failed: [] };
    } catch (error) {
      if (ids.length === 1) return { done: 0, failed: [{ id: ids[0] as string, error }] };
    }
    const outcome = { done: 0, failed: [] as { id: string; error: unknown }[] };
    for (const id of ids) {
      if (this.runs.stopping) break;
      const one = await this.remindAll(kind, [id], today, lead);
      outcome.done += one.done;
      outcome.failed.push(...one.failed);
    }
    return outcome;
  }

  /**
   * The reminders (or ends) of `ids` in one transaction; returns how many were made. Each record is read
   * again under its lock — an extension signed meanwhile, or another replica's reminder, ends its turn —
   * and a reminder is made only where its row in `contract_reminders` is new.
   */
  private remind(kind: ReminderKind, ids: string[], today: string, lead: Record<string, LeadTimes>) {
    const { db, outbox, events, publicUrl } = this.deps;
    return db.transaction().execute(async (trx) => {
      const records = await trx
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
        .where('c.id', 'in', ids)
        .where(dueSql(kind, today, lead))
        .where(stillRunning())
        .orderBy('c.id')
        .forUpdate()
        .skipLocked()
        .execute();
      const dayOf = (record: (typeof records)[number]) =>
        kind === 'notice' ? record.last_notice_day : record.end_date;
      const dated = records.filter((record) => dayOf(record) !== null);
      if (dated.length === 0) return 0;
      const inserted = await trx
        .insertInto('contract_reminders')
        .values(dated.map((record) => ({ contract_id: record.id, kind, day: dayOf(record) as string })))
        .onConflict((conflict) => conflict.doNothing())
        .returning('contract_id')
        .execute();
      const made = new Set(inserted.map((row) => row.contract_id));
      const due = dated.filter((record) => made.has(record.id));
      if (due.length === 0) return 0;
      if (kind === 'ended') {
        await trx
          .insertInto('contract_events')
          .values(
            due.map((record) => ({
              contract_id: record.id,
              type: EVENT_TYPES.ended,
              actor: '',
              detail: `Vertrag am ${germanDay(dayOf(record) as string)} beendet`,
            })),
          )
          .execute();
        for (const record of due)
          await events?.record({ kind: 'contract.event', contractId: record.id, type: 'ended' }, trx);
        return due.length;
      }
      const recipientsOf = await this.recipients(
        trx,
        due.map((record) => record.consultant),
      );
      const what = kind === 'notice' ? 'die Kündigungsfrist' : 'das Vertragsende';
      const mails: OutgoingMail[] = [];
      const history = due.map((record) => {
        const day = dayOf(record) as string;
        const recipients = recipientsOf(record.consultant);
        const deadline = { kind, day, daysLeft: daysBetween(today, day) };
        for (const to of recipients)
          mails.push(deadlineReminderMail(record as RecordForMail, deadline, to, publicUrl));
        return {
          contract_id: record.id,
          type: EVENT_TYPES[kind],
          actor: '',
          detail:
            recipients.length > 0
              ? `Erinnerung an ${what} am ${germanDay(day)} an ${recipients.join(', ')}`
              : `Erinnerung an ${what} am ${germanDay(day)}: niemand im Personalverzeichnis zu benachrichtigen`,
        };
      });
      await outbox.enqueue(mails, trx);
      await trx.insertInto('contract_events').values(history).execute();
      for (const record of due)
        await events?.record(
          {
            kind: 'contract.event',
            contractId: record.id,
            type: 'deadline_approaching',
            deadline: { kind, day: dayOf(record) as string },
          },
          trx,
        );
      return due.length;
    });
  }

  /**
   * Who is mailed of a contract: the deal's consultant — every colleague with a level whose name in the
   * staff directory is the record's consultant (those who see it on /vertraege) — then every member of
   * legal staff; each address once. One query for the whole batch.
   */
  private async recipients(trx: Executor, consultants: string[]): Promise<(consultant: string) => string[]> {
    const key = (name: string) => name.trim().toLowerCase();
    const names = [...new Set(consultants.map(key).filter((name) => name !== ''))];
    const rows = await trx
      .selectFrom('users')
      .select(['email', 'permission', sql<string>`lower(trim(name))`.as('name_key')])
      .where((eb) =>
        eb.or([
          eb('permission', '=', 2),
          ...(names.length > 0
            ? [eb.and([eb('permission', 'is not', null), eb(sql<string>`lower(trim(name))`, 'in', names)])]
            : []),
        ]),
      )
      .orderBy('email')
      .execute();
    const legal = rows.filter((row) => row.permission === 2).map((row) => row.email);
    return (consultant) => {
      const own = rows.filter((row) => row.name_key === key(consultant) && key(consultant) !== '');
      return [...new Set([...own.map((row) => row.email), ...legal])];
    };
  }
}
