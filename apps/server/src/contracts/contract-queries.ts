import {
  CONTRACTS_PAGE_SIZE,
  type ContractRow,
  type ContractSort,
  type ContractStatus,
  type ContractsPage,
  type ContractsQuery,
  ENDING_SOON_DAYS,
  isoDate,
  type PermissionLevel,
} from '@vertragsgenerator/domain';
import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { calendarDateOfIso } from './contract-terms.js';

/** Who reads: legal staff and leaders every contract, a consultant the deals they are the consultant of. */
export interface ContractReader {
  name: string;
  permission: PermissionLevel | null;
}

export const readsEveryContract = (reader: ContractReader) =>
  reader.permission === 2 || reader.permission === 3;

export function addDaysIso(iso: string, days: number): string {
  const { year, month, day } = calendarDateOfIso(iso);
  const date = new Date(Date.UTC(year, month - 1, day + days));
  return isoDate({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
}

/** Today as a calendar day where the company works: Berlin, whatever the server's zone. */
export function todayIso(now: Date): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(now);
}

/** The status as of `today`, in SQL over the record's own columns (so it can be filtered and counted). */
export function statusSql(today: string): RawBuilder<ContractStatus> {
  const soon = addDaysIso(today, ENDING_SOON_DAYS);
  return sql<ContractStatus>`case
    when c.terminated_by is not null then 'terminated'
    when c.superseded_by is not null then 'superseded'
    when c.end_date is null and c.date_problem is null then 'open_ended'
    when c.end_date is null then 'in_force'
    when c.end_date < ${today} then 'ended'
    when c.end_date <= ${soon} then 'ending_soon'
    else 'in_force' end`;
}

/** The sorted column, and whether it can be empty (those records come last either way). */
const SORT_COLUMNS: Record<ContractSort, { column: string; nullable: boolean }> = {
  end: { column: 'c.end_date', nullable: true },
  notice: { column: 'c.last_notice_day', nullable: true },
  signed: { column: 'c.signed_at', nullable: false },
  customer: { column: 'c.customer', nullable: false },
  match: { column: 'c.match_id', nullable: false },
};

type RecordQuery = SelectQueryBuilder<Database & { c: Database['contract_records'] }, 'c', object>;

/** `value%` for LIKE, the wildcards in the value itself taken literally. */
function startingWith(value: string): string {
  return `${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A name that starts with the text, without case: a prefix scan of the name's index. */
const nameStarts = (column: 'customer' | 'counterparty' | 'consultant', text: string) =>
  sql<SqlBool>`lower(${sql.ref(`c.${column}`)}) like ${startingWith(text.toLowerCase())}`;

/**
 * A status as conditions on the record's own columns rather than the `case` of `statusSql`: ranges
 * of the end date that its index answers, instead of the `case` computed for every record.
 */
function statusCondition(status: ContractStatus, today: string): RawBuilder<SqlBool> {
  const soon = addDaysIso(today, ENDING_SOON_DAYS);
  const running = sql<SqlBool>`c.terminated_by is null and c.superseded_by is null`;
  switch (status) {
    case 'terminated':
      return sql<SqlBool>`c.terminated_by is not null`;
    case 'superseded':
      return sql<SqlBool>`c.terminated_by is null and c.superseded_by is not null`;
    case 'open_ended':
      return sql<SqlBool>`${running} and c.end_date is null and c.date_problem is null`;
    case 'ended':
      return sql<SqlBool>`${running} and c.end_date < ${today}`;
    case 'ending_soon':
      return sql<SqlBool>`${running} and c.end_date >= ${today} and c.end_date <= ${soon}`;
    case 'in_force':
      return sql<SqlBool>`${running} and (c.end_date > ${soon} or (c.end_date is null and c.date_problem is not null))`;
  }
}

/**
 * The records a reader may see that match the filters. Names (customer, consultant, the search)
 * match from their start, without case: what a person types of a customer or a match ID, answered by
 * an index at 100,000 records (`npm run bench -- contracts`) where a match anywhere in the name would
 * read them all.
 */
export function matchingRecords(
  db: Db,
  reader: ContractReader,
  query: ContractsQuery,
  today: string,
): RecordQuery {
  let q = db.selectFrom('contract_records as c') as unknown as RecordQuery;
  if (!readsEveryContract(reader))
    q = q.where(sql<SqlBool>`lower(c.consultant) = ${reader.name.trim().toLowerCase()}`);
  if (query.company) q = q.where('c.company', '=', query.company);
  if (query.kind) q = q.where('c.kind', '=', query.kind);
  if (query.customer) q = q.where(nameStarts('customer', query.customer));
  if (query.consultant) q = q.where(nameStarts('consultant', query.consultant));
  if (query.q) {
    const text = query.q;
    q = q.where(
      sql<SqlBool>`(upper(c.match_id) like ${startingWith(text.toUpperCase())} or ${nameStarts('counterparty', text)} or ${nameStarts('customer', text)} or ${nameStarts('consultant', text)})`,
    );
  }
  if (query.endsWithin !== undefined)
    q = q
      .where('c.end_date', '>=', today)
      .where('c.end_date', '<=', addDaysIso(today, query.endsWithin))
      .where('c.terminated_by', 'is', null)
      .where('c.superseded_by', 'is', null);
  if (query.noticeWithin !== undefined)
    q = q
      .where('c.last_notice_day', '>=', today)
      .where('c.last_notice_day', '<=', addDaysIso(today, query.noticeWithin))
      .where('c.terminated_by', 'is', null)
      .where('c.superseded_by', 'is', null);
  if (query.withoutFramework) q = q.where(sql<SqlBool>`c.kind = 'einzelauftrag' and c.parent_id is null`);
  if (query.status) q = q.where(statusCondition(query.status, today));
  return q;
}

export const ROW_COLUMNS = [
  'c.id',
  'c.match_id',
  'c.kind',
  'c.company',
  'c.partner_type',
  'c.counterparty',
  'c.customer',
  'c.consultant',
  'c.start_date',
  'c.end_date',
  'c.notice_text',
  'c.notice_rule',
  'c.notice_rule_source',
  'c.last_notice_day',
  'c.signed_at',
] as const;

type RowColumns = {
  id: string;
  match_id: string;
  kind: ContractRow['kind'];
  company: string;
  partner_type: string;
  counterparty: string;
  customer: string;
  consultant: string;
  start_date: string | null;
  end_date: string | null;
  notice_text: string | null;
  notice_rule: ContractRow['noticeRule'];
  notice_rule_source: ContractRow['noticeRuleSource'];
  last_notice_day: string | null;
  signed_at: Date;
  status: ContractStatus;
};

export function contractRow(row: RowColumns): ContractRow {
  return {
    id: row.id,
    matchId: row.match_id,
    kind: row.kind,
    status: row.status,
    company: row.company as ContractRow['company'],
    partnerType: row.partner_type as ContractRow['partnerType'],
    counterparty: row.counterparty,
    customer: row.customer,
    consultant: row.consultant,
    startDate: row.start_date,
    endDate: row.end_date,
    noticeText: row.notice_text,
    noticeRule: row.notice_rule,
    noticeRuleSource: row.notice_rule_source,
    lastNoticeDay: row.last_notice_day,
    signedAt: row.signed_at.toISOString(),
  };
}

/** The ordered records of a query, `limit` from `offset`: a page, or the whole view for an export. */
export async function contractRows(
  db: Db,
  reader: ContractReader,
  query: ContractsQuery,
  now: Date,
  range: { limit: number; offset: number },
): Promise<ContractRow[]> {
  const today = todayIso(now);
  const { column, nullable } = SORT_COLUMNS[query.sort];
  const direction = query.direction === 'desc' ? sql`desc` : sql`asc`;
  const rows = await matchingRecords(db, reader, query, today)
    .select([...ROW_COLUMNS, statusSql(today).as('status')])
    // Records without the sorted value (no end, no notice deadline) come last either way.
    // The id breaks ties in the same direction, so an index on (column, id) reads the page either way;
    // `nulls last` only where there can be nulls (it would keep a backward scan from serving `desc`).
    .orderBy(sql`${sql.ref(column)} ${direction}${nullable ? sql` nulls last` : sql``}`)
    .orderBy(sql`c.id ${direction}`)
    .limit(range.limit)
    .offset(range.offset)
    .execute();
  return rows.map((row) => contractRow(row as RowColumns));
}

/** `/vertraege`: one page of the records a reader may see, with how many match in all. */
export async function contractsPage(
  db: Db,
  reader: ContractReader,
  query: ContractsQuery,
  now: Date,
): Promise<ContractsPage> {
  const today = todayIso(now);
  const [rows, count] = await Promise.all([
    contractRows(db, reader, query, now, {
      limit: CONTRACTS_PAGE_SIZE,
      offset: (query.page - 1) * CONTRACTS_PAGE_SIZE,
    }),
    matchingRecords(db, reader, query, today)
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total), page: query.page, pageSize: CONTRACTS_PAGE_SIZE };
}
