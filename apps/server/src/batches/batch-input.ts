import {
  BATCH_MAX_DEALS,
  type CatalogueEntry,
  formatGermanNumber,
  isoDate,
  normalizeMatchId,
} from '@vertragsgenerator/domain';
import { readSheet } from 'read-excel-file/node';
import { CsvSyntaxError, parseCsv } from '../matches/csv.js';

/** One deal of the input: its line (in the file or the pasted text), its ID and its own values. */
export interface BatchRow {
  line: number;
  matchId: string;
  values: Record<string, unknown>;
}

/** The input cannot be read as a whole: every problem with its line, in German. Nothing is stored. */
export class BatchInputError extends Error {
  override name = 'BatchInputError';
  constructor(readonly problems: Record<string, string[]>) {
    super(Object.values(problems).flat().join(' '));
  }
}

/** The columns a file may have besides the Match-ID, per form: the dataList field each one fills. */
const VALUE_COLUMNS: Record<string, { field: string; label: string; names: string[] }[]> = {
  extension: [
    {
      field: 'neuesEnde',
      label: 'Neues Ende',
      names: ['neuesende', 'neuesvertragsende', 'ende', 'enddatum'],
    },
    {
      field: 'neuerSatzRemote',
      label: 'Stundensatz remote',
      names: ['neuersatzremote', 'stundensatzremote', 'neuerstundensatzremote', 'satzremote'],
    },
    {
      field: 'neuerSatzOnsite',
      label: 'Stundensatz vor Ort',
      names: [
        'neuersatzonsite',
        'stundensatzvorort',
        'stundensatzonsite',
        'neuerstundensatzvorort',
        'satzvorort',
      ],
    },
    {
      field: 'neueStundenProWoche',
      label: 'Stunden pro Woche',
      names: ['neuestundenprowoche', 'stundenprowoche', 'stunden'],
    },
  ],
  termination: [{ field: 'position', label: 'Position', names: ['position'] }],
  offer: [
    { field: 'projectHours', label: 'Projektstunden', names: ['projektstunden', 'projecthours', 'stunden'] },
    { field: 'projectDays', label: 'Projekttage', names: ['projekttage', 'projectdays', 'tage'] },
  ],
};
/** An e-signature contract's signers: the CRM does not know their addresses, so the file names them. */
const signerColumns = (prefix: 'Kunde' | 'Projektpartner') => [
  { field: `${prefix}_UserName`, label: 'Unterzeichner', names: ['unterzeichner', 'unterzeichnername'] },
  {
    field: `${prefix}_Email`,
    label: 'Unterzeichner E-Mail',
    names: ['unterzeichneremail', 'unterzeichnermail', 'email', 'mail'],
  },
];
const copyColumns = [
  { field: 'CC_UserName', label: 'Kopie an', names: ['kopiean', 'cc', 'ccname'] },
  { field: 'CC_Email', label: 'Kopie an E-Mail', names: ['kopieanemail', 'ccemail', 'ccmail'] },
];
const ESIGNATURE_COLUMNS = {
  k: [
    ...signerColumns('Kunde'),
    { field: 'Kunde2_UserName', label: 'Unterzeichner 2', names: ['unterzeichner2', 'unterzeichner2name'] },
    {
      field: 'Kunde2_Email',
      label: 'Unterzeichner 2 E-Mail',
      names: ['unterzeichner2email', 'unterzeichner2mail', 'email2'],
    },
    ...copyColumns,
  ],
  pp: [...signerColumns('Projektpartner'), ...copyColumns],
};
const MATCH_ID_NAMES = ['matchid', 'match', 'id', 'dealid'];

/** The per-deal columns a file for this key may have (an extension's dates and rates, an offer's volume). */
export function valueColumns(entry: CatalogueEntry) {
  const { params } = entry;
  if (params.family === 'agreement' && params.agreement === 'extension') return VALUE_COLUMNS.extension ?? [];
  if (entry.form === 'docusign') return ESIGNATURE_COLUMNS[params.partner === 'pp' ? 'pp' : 'k'];
  return VALUE_COLUMNS[entry.form] ?? [];
}

/** „Match-ID“, „match_id“ and „Match ID“ are one name. */
const columnName = (title: string) => title.toLowerCase().replace(/[\s_\-.]/g, '');

/** Pasted IDs: one per line, or separated by commas, semicolons or spaces; blank ones left out. */
export function pastedRows(text: string): BatchRow[] {
  const rows: BatchRow[] = [];
  text.split(/\r\n|\n|\r/).forEach((lineText, index) => {
    for (const id of lineText.split(/[,;\s]+/)) {
      if (id.trim() !== '') rows.push({ line: index + 1, matchId: normalizeMatchId(id), values: {} });
    }
  });
  return rows;
}

/** A cell as text: numbers in German notation (as a person reads them), days as ISO. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date)
    return isoDate({ year: value.getUTCFullYear(), month: value.getUTCMonth() + 1, day: value.getUTCDate() });
  if (typeof value === 'number') return formatGermanNumber(value);
  return String(value).trim();
}

/** The cells of a file, line by line, from a CSV (comma or semicolon, BOM or none) or an XLSX. */
async function fileLines(name: string, content: Buffer): Promise<{ line: number; cells: unknown[] }[]> {
  if (content.byteLength === 0) throw new BatchInputError({ file: ['Die Datei ist leer.'] });
  const isZip = content.subarray(0, 2).toString('latin1') === 'PK';
  if (isZip || /\.xlsx$/i.test(name)) {
    try {
      const sheet = await readSheet(content);
      return sheet.map((cells, index) => ({ line: index + 1, cells }));
    } catch {
      throw new BatchInputError({
        file: ['Die Excel-Datei lässt sich nicht lesen. Bitte als .xlsx oder als CSV speichern.'],
      });
    }
  }
  const text = content.toString('utf8');
  if (text.includes('\u0000') || text.includes('\uFFFD'))
    throw new BatchInputError({ file: ['Die Datei ist weder eine CSV- noch eine Excel-Datei (.xlsx).'] });
  try {
    return parseCsv(text).map((record) => ({ line: record.line, cells: record.cells }));
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throw new BatchInputError({ [`Zeile ${error.line}`]: [error.message] });
    throw error;
  }
}

/**
 * The deals of a CSV or XLSX file: a header line with a Match-ID column and, optionally, the key's value
 * columns (`valueColumns`); then one deal per line. Blank lines are skipped. A column the key does not
 * know, a missing Match-ID column, a formula where a value belongs, a deal twice and more than 1,000
 * deals make the whole file fail, each named with its line.
 */
export async function fileRows(entry: CatalogueEntry, name: string, content: Buffer): Promise<BatchRow[]> {
  const lines = (await fileLines(name, content)).filter((line) =>
    line.cells.some((cell) => cellText(cell) !== ''),
  );
  const [header, ...body] = lines;
  if (!header) throw new BatchInputError({ file: ['Die Datei ist leer.'] });
  const known = valueColumns(entry);
  const problems: Record<string, string[]> = {};
  const add = (key: string, message: string) => {
    problems[key] = [...(problems[key] ?? []), message];
  };
  const columns = header.cells.map((cell, index) => {
    const title = cellText(cell);
    const name = columnName(title);
    if (MATCH_ID_NAMES.includes(name)) return { index, field: 'matchId', title };
    const column = known.find((candidate) => candidate.names.includes(name));
    if (column) return { index, field: column.field, title };
    if (title !== '')
      add(
        `Zeile ${header.line}`,
        `Unbekannte Spalte „${title}“. Erlaubt sind: ${['Match-ID', ...known.map((c) => c.label)].join(', ')}.`,
      );
    return undefined;
  });
  const idColumn = columns.find((column) => column?.field === 'matchId');
  if (!idColumn) add(`Zeile ${header.line}`, 'Die Spalte „Match-ID“ fehlt in der ersten Zeile.');
  if (body.length > BATCH_MAX_DEALS)
    add(
      'file',
      `Höchstens ${BATCH_MAX_DEALS.toLocaleString('de-DE')} Deals pro Serie; die Datei hat ${body.length.toLocaleString('de-DE')}.`,
    );
  if (Object.keys(problems).length > 0) throw new BatchInputError(problems);

  const rows: BatchRow[] = [];
  const seen = new Map<string, number>();
  for (const { line, cells } of body) {
    const values: Record<string, unknown> = {};
    let matchId = '';
    for (const column of columns) {
      if (!column) continue;
      const text = cellText(cells[column.index]);
      if (text.startsWith('=')) {
        add(
          `Zeile ${line}`,
          `In der Spalte „${column.title}“ steht eine Formel (${text}); bitte den Wert eintragen.`,
        );
        continue;
      }
      if (column.field === 'matchId') matchId = text === '' ? '' : normalizeMatchId(text);
      else if (text !== '') values[column.field] = text;
    }
    if (matchId === '') {
      add(`Zeile ${line}`, 'Die Match-ID fehlt.');
      continue;
    }
    const earlier = seen.get(matchId);
    if (earlier !== undefined) add(`Zeile ${line}`, `${matchId} steht schon in Zeile ${earlier}.`);
    else seen.set(matchId, line);
    rows.push({ line, matchId, values });
  }
  if (Object.keys(problems).length > 0) throw new BatchInputError(problems);
  return rows;
}

/** The pasted IDs' rows, with a deal pasted twice or more than 1,000 deals named. */
export function checkedPastedRows(text: string): BatchRow[] {
  const rows = pastedRows(text);
  const problems: Record<string, string[]> = {};
  if (rows.length > BATCH_MAX_DEALS)
    problems.matchIds = [
      `Höchstens ${BATCH_MAX_DEALS.toLocaleString('de-DE')} Deals pro Serie; eingegeben sind ${rows.length.toLocaleString('de-DE')}.`,
    ];
  const seen = new Set<string>();
  const unique = rows.filter((row) => {
    if (seen.has(row.matchId)) return false;
    seen.add(row.matchId);
    return true;
  });
  if (Object.keys(problems).length > 0) throw new BatchInputError(problems);
  // A deal pasted twice is one deal: pasting from two lists that overlap is no mistake.
  return unique;
}
