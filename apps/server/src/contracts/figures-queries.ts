import { CATALOGUE, type Company, type ContractKind, FIGURES_TOP_REASONS } from '@vertragsgenerator/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * The SQL of `/auswertung`: one query per figure, each the same text on PostgreSQL and PGlite. Months
 * are Berlin's calendar months; a period is given as instants (`from` inclusive, `to` exclusive) made
 * from Berlin midnights by the database, so a month's bounds follow summer time.
 */

/** The instant a Berlin calendar day begins, in SQL. */
const berlinMidnight = (isoDay: string) => sql`(${isoDay}::timestamp at time zone 'Europe/Berlin')`;
const berlinMonth = (column: RawBuilder<unknown>) =>
  sql<string>`to_char(${column} at time zone 'Europe/Berlin', 'YYYY-MM')`;

/** A period of whole months: `from` is the first day of its first month, `to` the first day after it. */
export interface Period {
  from: string;
  to: string;
}

/** The catalogue's keys of a company: an envelope's or request's company is that of its document key. */
function keysOf(company: Company): RawBuilder<boolean> {
  const keys = [...CATALOGUE.values()].filter((e) => e.params.company === company).map((e) => e.key);
  return sql<boolean>`in (${sql.join(keys)})`;
}

const companyFilter = (column: RawBuilder<unknown>, company: Company | undefined) =>
  company ? sql`and ${column} ${keysOf(company)}` : sql``;

export interface EndingRow {
  month: string;
  kind: ContractKind;
  count: number;
}

/** Contracts ending from `today` to before `to`, neither terminated nor replaced, per month and kind. */
export async function endingsPerMonth(
  db: Db,
  { today, to, company }: { today: string; to: string; company: Company | undefined },
): Promise<EndingRow[]> {
  const { rows } = await sql<EndingRow>`
    select substr(c.end_date, 1, 7) as month, c.kind, count(*)::int as count
    from contract_records c
    where c.end_date >= ${today} and c.end_date < ${to}
      and c.terminated_by is null and c.superseded_by is null
      ${company ? sql`and c.company = ${company}` : sql``}
    group by 1, 2`.execute(db);
  return rows;
}

export interface LeadTimeRow {
  month: string;
  company: Company | null;
  kind: ContractKind | null;
  /** `grouping(company, kind)`: 3 every envelope of the month, 1 per company, 2 per kind. */
  grouping: number;
  count: number;
  to_sent: (number | null)[] | null;
  to_completed: (number | null)[] | null;
}

/**
 * The contracts signed through an envelope in `period`: days from their document's generation to the
 * envelope's first sending and to its completion (the record's signature), median and 90th percentile
 * per month of completion, overall, per company and per kind in one pass (grouping sets). The record
 * keeps all three instants, so this reads the records alone (migration 0030).
 */
export async function leadTimesPerMonth(
  db: Db,
  { period, company }: { period: Period; company: Company | undefined },
): Promise<LeadTimeRow[]> {
  const { rows } = await sql<LeadTimeRow>`
    with done as (
      select ${berlinMonth(sql`c.signed_at`)} as month, c.company, c.kind,
        extract(epoch from (c.first_sent_at - c.generated_at)) / 86400 as to_sent,
        extract(epoch from (c.signed_at - c.generated_at)) / 86400 as to_completed
      from contract_records c
      where c.source_kind = 'envelope'
        and c.signed_at >= ${berlinMidnight(period.from)} and c.signed_at < ${berlinMidnight(period.to)}
        ${company ? sql`and c.company = ${company}` : sql``}
    )
    select month, company, kind, grouping(company, kind)::int as grouping, count(*)::int as count,
      percentile_cont(array[0.5, 0.9]) within group (order by to_sent) as to_sent,
      percentile_cont(array[0.5, 0.9]) within group (order by to_completed) as to_completed
    from done
    group by grouping sets ((month), (month, company), (month, kind))`.execute(db);
  return rows;
}

export interface ApprovalRow {
  month: string;
  count: number;
  hours: (number | null)[] | null;
}

/** Freigabe: hours from each request to its decision, median and p90 per month of the decision. */
export async function approvalLeadTimes(
  db: Db,
  { period, company }: { period: Period; company: Company | undefined },
): Promise<ApprovalRow[]> {
  const { rows } = await sql<ApprovalRow>`
    select ${berlinMonth(sql`d.decided_at`)} as month, count(*)::int as count,
      percentile_cont(array[0.5, 0.9]) within group (
        order by extract(epoch from (d.decided_at - r.requested_at)) / 3600
      ) as hours
    from approval_decisions d
    join approval_requests r on r.id = d.request_id
    where d.decided_at >= ${berlinMidnight(period.from)} and d.decided_at < ${berlinMidnight(period.to)}
      ${companyFilter(sql`r.doc_key`, company)}
    group by 1`.execute(db);
  return rows;
}

export interface WaitingRow {
  routing_order: number;
  role: string;
  count: number;
}

/**
 * Sent envelopes by the step they wait for: the routing order and role of each signer invited and not
 * answered yet (a signer is invited only once the steps before have signed).
 */
export async function waitingSteps(
  db: Db,
  { company }: { company: Company | undefined },
): Promise<WaitingRow[]> {
  const { rows } = await sql<WaitingRow>`
    select w.routing_order, w.role, count(distinct e.id)::int as count
    from envelopes e
    join envelope_recipients w on w.envelope_id = e.id and w.status in ('sent', 'opened')
    where e.status = 'sent'
      ${companyFilter(sql`e.doc_key`, company)}
    group by 1, 2
    order by 1, 2`.execute(db);
  return rows;
}

export interface DeclineRow {
  /** Null: the reasons after the most frequent, summed. */
  reason: string | null;
  count: number;
}

/** Declines in `period` by their trimmed reason: the most frequent FIGURES_TOP_REASONS, then the rest. */
export async function declineReasons(
  db: Db,
  { period, company }: { period: Period; company: Company | undefined },
): Promise<DeclineRow[]> {
  const { rows } = await sql<DeclineRow & { rank: number }>`
    with reasons as (
      select trim(coalesce(ev.detail, '')) as reason, count(*)::int as n
      from envelope_events ev
      join envelopes e on e.id = ev.envelope_id
      where ev.type = 'declined'
        and ev.at >= ${berlinMidnight(period.from)} and ev.at < ${berlinMidnight(period.to)}
        ${companyFilter(sql`e.doc_key`, company)}
      group by 1
    ), ranked as (
      select reason, n, row_number() over (order by n desc, reason) as rank from reasons
    )
    select case when rank <= ${FIGURES_TOP_REASONS} then reason end as reason,
      sum(n)::int as count, min(rank)::int as rank
    from ranked
    group by 1
    order by 3`.execute(db);
  return rows.map(({ reason, count }) => ({ reason, count }));
}
