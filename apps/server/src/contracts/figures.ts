import {
  CONTRACT_KINDS,
  type Company,
  type ContractFigures,
  type ContractFiguresQuery,
  type ContractKind,
  type FigureSpread,
  type LeadTimeMonth,
} from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import { todayIso } from './contract-queries.js';
import {
  approvalLeadTimes,
  declineReasons,
  endingsPerMonth,
  type LeadTimeRow,
  leadTimesPerMonth,
  type Period,
  waitingSteps,
} from './figures-queries.js';

/**
 * `/auswertung`: the figures of the contract work as of `now` (Berlin), each from one query. Every
 * month of a period is answered, a month without anything with zero and no durations, so that a chart
 * shows the gap.
 */

/** `YYYY-MM` moved by `months` calendar months. */
export function addMonths(month: string, months: number): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (number - 1) + months;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** `count` months from `first` on. */
export function monthsFrom(first: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addMonths(first, i));
}

/** Durations are answered to a tenth (of a day, of an hour): finer says nothing a reader could use. */
const tenth = (value: number | null | undefined): number | null =>
  value === null || value === undefined ? null : Math.round(value * 10) / 10;

function spread(percentiles: (number | null)[] | null): FigureSpread {
  return { median: tenth(percentiles?.[0]), p90: tenth(percentiles?.[1]) };
}

const NO_LEAD_TIME = { count: 0, toSent: spread(null), toCompleted: spread(null) };

function leadTime(row: LeadTimeRow): Omit<LeadTimeMonth, 'month'> {
  return { count: row.count, toSent: spread(row.to_sent), toCompleted: spread(row.to_completed) };
}

const GROUPING = { all: 3, byCompany: 1, byKind: 2 } as const;

/** The months back: this month and the `months - 1` before it. */
function pastPeriod(thisMonth: string, months: number): Period & { months: string[] } {
  const first = addMonths(thisMonth, -(months - 1));
  return { from: `${first}-01`, to: `${addMonths(thisMonth, 1)}-01`, months: monthsFrom(first, months) };
}

export async function contractFigures(
  db: Db,
  query: ContractFiguresQuery,
  now: Date,
): Promise<ContractFigures> {
  const today = todayIso(now);
  const thisMonth = today.slice(0, 7);
  const company: Company | undefined = query.company;
  const past = pastPeriod(thisMonth, query.months);
  const ahead = monthsFrom(thisMonth, query.months);

  const [endings, leadTimes, approvals, waiting, declines] = await Promise.all([
    endingsPerMonth(db, { today, to: `${addMonths(thisMonth, query.months)}-01`, company }),
    leadTimesPerMonth(db, { period: past, company }),
    approvalLeadTimes(db, { period: past, company }),
    waitingSteps(db, { company }),
    declineReasons(db, { period: past, company }),
  ]);

  const zeroByKind = () =>
    Object.fromEntries(CONTRACT_KINDS.map((kind) => [kind, 0])) as Record<ContractKind, number>;
  const endingMonths = new Map(ahead.map((month) => [month, { month, total: 0, byKind: zeroByKind() }]));
  for (const row of endings) {
    const entry = endingMonths.get(row.month);
    if (!entry) continue;
    entry.byKind[row.kind] = (entry.byKind[row.kind] ?? 0) + row.count;
    entry.total += row.count;
  }

  const rowsOf = (grouping: number) => leadTimes.filter((row) => row.grouping === grouping);
  const all = new Map(rowsOf(GROUPING.all).map((row) => [row.month, leadTime(row)]));
  const approvalMonths = new Map(approvals.map((row) => [row.month, row]));
  const byMonth = <T extends { month: string }>(a: T, b: T) => a.month.localeCompare(b.month);

  return {
    today,
    company: company ?? null,
    months: query.months,
    endings: [...endingMonths.values()],
    leadTimes: {
      all: past.months.map((month) => ({ month, ...(all.get(month) ?? NO_LEAD_TIME) })),
      // Only the groups there are: a company or kind without a completed envelope is left out.
      byCompany: rowsOf(GROUPING.byCompany)
        .filter((row): row is LeadTimeRow & { company: Company } => row.company !== null)
        .map((row) => ({ month: row.month, company: row.company, ...leadTime(row) }))
        .sort((a, b) => byMonth(a, b) || a.company.localeCompare(b.company)),
      byKind: rowsOf(GROUPING.byKind)
        .filter((row): row is LeadTimeRow & { kind: ContractKind } => row.kind !== null)
        .map((row) => ({ month: row.month, kind: row.kind, ...leadTime(row) }))
        .sort((a, b) => byMonth(a, b) || CONTRACT_KINDS.indexOf(a.kind) - CONTRACT_KINDS.indexOf(b.kind)),
    },
    approvals: past.months.map((month) => {
      const row = approvalMonths.get(month);
      return { month, count: row?.count ?? 0, hours: spread(row?.hours ?? null) };
    }),
    waiting: waiting.map((row) => ({ routingOrder: row.routing_order, role: row.role, count: row.count })),
    declines,
  };
}
