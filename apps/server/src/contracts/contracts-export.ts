import {
  CONTRACT_KIND_LABELS,
  CONTRACT_STATUS_LABELS,
  type ContractRow,
  type ContractsQuery,
  describeNoticeRule,
} from '@vertragsgenerator/domain';
import { stringify } from 'csv-stringify/sync';
import writeExcelFile from 'write-excel-file/node';
import type { Db } from '../db/database.js';
import { HttpError } from '../shared/http-error.js';
import { type ContractReader, contractRows } from './contract-queries.js';

/** An export is of a view a person works with; a larger one is narrowed first (and a 100,000-row file is no view). */
export const EXPORT_MAX_ROWS = 20_000;

type ExportFormat = 'csv' | 'xlsx';

/** A German calendar day, as the page shows it; blank for none. */
const germanDate = (iso: string | null) => (iso ? iso.split('-').reverse().join('.') : '');

const COLUMNS: readonly { header: string; value: (row: ContractRow) => string }[] = [
  { header: 'Match', value: (row) => row.matchId },
  { header: 'Art', value: (row) => CONTRACT_KIND_LABELS[row.kind] },
  { header: 'Status', value: (row) => CONTRACT_STATUS_LABELS[row.status] },
  { header: 'Gesellschaft', value: (row) => row.company.toUpperCase() },
  { header: 'Vertragspartner', value: (row) => (row.partnerType === 'k' ? 'Kunde' : 'Projektpartner') },
  { header: 'Gegenseite', value: (row) => row.counterparty },
  { header: 'Kunde', value: (row) => row.customer },
  { header: 'Berater', value: (row) => row.consultant },
  { header: 'Beginn', value: (row) => germanDate(row.startDate) },
  { header: 'Ende', value: (row) => germanDate(row.endDate) },
  { header: 'Kündigungsfrist (Text)', value: (row) => row.noticeText ?? '' },
  {
    header: 'Kündigungsfrist (Regel)',
    value: (row) => (row.noticeRule ? describeNoticeRule(row.noticeRule) : ''),
  },
  { header: 'Kündigung spätestens', value: (row) => germanDate(row.lastNoticeDay) },
  { header: 'Unterschrieben am', value: (row) => germanDate(row.signedAt.slice(0, 10)) },
];

/**
 * The current view of `/vertraege` as a file: the same filters, sort and reader as the page, every
 * page of it. CSV with a semicolon and a byte order mark, as German spreadsheet programs open it;
 * XLSX through write-excel-file. Dates are written as the page shows them.
 */
export async function exportContracts(
  db: Db,
  reader: ContractReader,
  query: ContractsQuery,
  format: ExportFormat,
  now: Date,
): Promise<Buffer> {
  const rows = await contractRows(db, reader, query, now, { limit: EXPORT_MAX_ROWS + 1, offset: 0 });
  if (rows.length > EXPORT_MAX_ROWS)
    throw new HttpError(
      422,
      'export_too_large',
      `Die Ansicht hat mehr als ${EXPORT_MAX_ROWS.toLocaleString('de-DE')} Verträge. Grenze sie mit den Filtern ein und exportiere dann.`,
    );
  const header = COLUMNS.map((column) => column.header);
  const values = rows.map((row) => COLUMNS.map((column) => column.value(row)));
  if (format === 'csv')
    return Buffer.from(`\uFEFF${stringify([header, ...values], { delimiter: ';' })}`, 'utf8');
  return writeExcelFile(
    [
      header.map((value) => ({ value, fontWeight: 'bold' as const })),
      ...values.map((cells) => cells.map((value) => ({ value }))),
    ],
    {
      sheet: 'Verträge',
      stickyRowsCount: 1,
    },
  ).toBuffer();
}
