import {
  MATCH_NUMERIC_FIELDS,
  MATCH_TEXT_FIELDS,
  type MatchRecord,
  matchRecordSchema,
  normalizeMatchId,
} from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { CsvSyntaxError, parseCsv } from './csv.js';
import { matchIdProblem } from './match-id.js';
import type { MatchStore } from './match-store.js';

/**
 * The match import (docs/architecture.md#matches): a JSON array of records or a CSV with the field names of
 * packages/domain/src/match.ts plus `matchId`. Every row is validated; a file with a refused row imports
 * nothing unless the caller asks to skip invalid rows, so a file is never half-imported by accident.
 */

/**
 * Where a row is, counted from 1: a CSV row (and a problem of the whole file) by the line it starts on,
 * an entry of a JSON file by its number in the array, since a JSON file may be written on one line.
 */
export type RowPlace = { line: number } | { entry: number };

export type RefusedRow = RowPlace & { matchId?: string; reason: string };

export interface ParsedMatchFile {
  valid: MatchRecord[];
  refused: RefusedRow[];
}

export interface MatchImportOptions {
  /** Import the valid rows of a file that also has refused ones. */
  skipInvalid?: boolean;
  /** Only count what an import would do; write nothing. */
  dryRun?: boolean;
  /** Written in the import's transaction when matches are written (the audit entry). */
  record?: (trx: Kysely<Database>, result: MatchImportResult) => Promise<void>;
}

export interface MatchImportResult {
  /** Rows that passed validation. */
  valid: number;
  /** Of the valid rows: IDs not yet stored, stored ones with other values, stored ones unchanged. */
  new: number;
  changed: number;
  unchanged: number;
  /** Matches written to the store: `valid`, or 0 when refused rows held the file back or in a dry run. */
  imported: number;
  refused: RefusedRow[];
}

const MATCH_ID_FIELD = 'matchId';
const TEXT_FIELDS: ReadonlySet<string> = new Set(MATCH_TEXT_FIELDS);
const NUMERIC_FIELDS: ReadonlySet<string> = new Set(MATCH_NUMERIC_FIELDS);
const IMPORT_FIELDS: readonly string[] = [MATCH_ID_FIELD, ...MATCH_TEXT_FIELDS, ...MATCH_NUMERIC_FIELDS];

/** One row as read from the file, before validation. */
interface RawRow {
  place: RowPlace;
  values: Record<string, unknown>;
  /** Set when the row is broken beyond its field values, e.g. a CSV row with too many cells. */
  problem?: string;
}

/** A problem of the file as a whole: no row can be trusted, so every row is refused. */
class MatchFileError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

export function parseMatchFile(text: string): ParsedMatchFile {
  const content = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    if (content.trim() === '') throw new MatchFileError(1, 'Die Datei ist leer.');
    // No CSV header starts with a bracket or brace, so the first character tells the formats apart.
    const rows = /^\s*[[{]/.test(content) ? jsonRows(content) : csvRows(content);
    return validateRows(rows);
  } catch (error) {
    if (error instanceof MatchFileError || error instanceof CsvSyntaxError) {
      return { valid: [], refused: [{ line: error.line, reason: error.message }] };
    }
    throw error;
  }
}

export async function importMatches(
  text: string,
  store: MatchStore,
  options: MatchImportOptions = {},
): Promise<MatchImportResult> {
  const { valid, refused } = parseMatchFile(text);
  const counts = await store.classify(valid);
  const result = { valid: valid.length, ...counts, imported: 0, refused };
  const write = !options.dryRun && valid.length > 0 && (refused.length === 0 || options.skipInvalid === true);
  if (!write) return result;
  const written = { ...result, imported: valid.length };
  await store.upsertMany(valid, (trx) => options.record?.(trx, written) ?? Promise.resolve());
  return written;
}

/** The summary and one line per refused row, as the CLI prints them. */
export function importReport(result: MatchImportResult): string[] {
  return [
    result.imported > 0
      ? `${result.imported} Matches importiert (${result.new} neu, ${result.changed} geändert, ${result.unchanged} unverändert), ${result.refused.length} abgelehnt`
      : `0 Matches importiert, ${result.refused.length} abgelehnt`,
    ...result.refused.map((row) =>
      row.matchId ? `${placeName(row)}: ${row.matchId}: ${row.reason}` : `${placeName(row)}: ${row.reason}`,
    ),
  ];
}

/** `Zeile 3` or `Eintrag 3`. */
export function placeName(place: RowPlace): string {
  return 'line' in place ? `Zeile ${place.line}` : `Eintrag ${place.entry}`;
}

/** 1 when the file was refused as a whole: something was wrong and nothing got in. */
export function importExitCode(result: MatchImportResult): 0 | 1 {
  return result.refused.length > 0 && result.imported === 0 ? 1 : 0;
}

function jsonRows(content: string): RawRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    const line = position === undefined ? 1 : lineAt(content, Number(position));
    throw new MatchFileError(line, `Die Datei ist kein gültiges JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) {
    throw new MatchFileError(1, 'Die JSON-Datei muss ein Array von Match-Objekten enthalten.');
  }
  return parsed.map((element: unknown, index): RawRow => {
    const place = { entry: index + 1 };
    if (typeof element !== 'object' || element === null || Array.isArray(element)) {
      return { place, values: {}, problem: 'Der Eintrag ist kein JSON-Objekt mit Feldern.' };
    }
    return { place, values: element as Record<string, unknown> };
  });
}

function lineAt(text: string, position: number): number {
  return text.slice(0, position).split('\n').length;
}

function csvRows(content: string): RawRow[] {
  const [header, ...records] = parseCsv(content);
  if (!header) return [];
  const names = header.cells.map((name) => name.trim());
  checkHeader(names, header.line);
  return records
    .filter((record) => record.cells.some((cell) => cell !== ''))
    .map(({ line, cells }): RawRow => {
      const place = { line };
      const values: Record<string, unknown> = {};
      names.forEach((name, column) => {
        const cell = cells[column];
        // An empty cell is how a spreadsheet says "no value".
        if (name !== '' && cell !== undefined && cell !== '') values[name] = cell;
      });
      if (cells.length !== names.length) {
        return {
          place,
          values,
          problem: `Die Zeile hat ${cells.length} ${cells.length === 1 ? 'Wert' : 'Werte'}, die Kopfzeile ${names.length} Spalten. Enthält ein Wert das Trennzeichen ohne Anführungszeichen?`,
        };
      }
      const unnamed = cells.findIndex((cell, column) => names[column] === '' && cell !== '');
      if (unnamed >= 0) {
        return {
          place,
          values,
          problem: `Spalte ${unnamed + 1} hat einen Wert, aber keinen Feldnamen in der Kopfzeile.`,
        };
      }
      return { place, values };
    });
}

/** A misnamed column would silently drop a field in every row, so it refuses the whole file. */
function checkHeader(names: readonly string[], line: number): void {
  const unknown = names.filter((name) => name !== '' && !IMPORT_FIELDS.includes(name));
  if (unknown.length > 0) {
    throw new MatchFileError(
      line,
      `Unbekannte Spalten in der Kopfzeile: ${unknown.map(describeUnknownField).join(', ')}.`,
    );
  }
  const repeated = names.filter((name, column) => name !== '' && names.indexOf(name) !== column);
  if (repeated.length > 0) {
    throw new MatchFileError(
      line,
      `Spalten kommen in der Kopfzeile mehrfach vor: ${[...new Set(repeated)].map(quote).join(', ')}.`,
    );
  }
  if (!names.includes(MATCH_ID_FIELD)) {
    throw new MatchFileError(line, `Die Kopfzeile hat keine Spalte ${quote(MATCH_ID_FIELD)}.`);
  }
}

function validateRows(rows: readonly RawRow[]): ParsedMatchFile {
  const checked = rows.map((row) => ({ row, ...validateRow(row) }));

  const placesById = new Map<string, RowPlace[]>();
  for (const { row, matchId } of checked) {
    if (matchId) placesById.set(matchId, [...(placesById.get(matchId) ?? []), row.place]);
  }

  const valid: MatchRecord[] = [];
  const refused: RefusedRow[] = [];
  for (const { row, matchId, record, reasons } of checked) {
    const places = matchId ? (placesById.get(matchId) ?? []) : [];
    // Which of two rows with one ID is right only the author of the file knows: both are refused.
    if (places.length > 1) {
      reasons.push(`Die Match-ID kommt in der Datei mehrfach vor (${placeNames(places)}).`);
    }
    if (record && reasons.length === 0) valid.push(record);
    else refused.push({ ...row.place, ...(matchId ? { matchId } : {}), reason: reasons.join(' ') });
  }
  return { valid, refused };
}

/** `Zeilen 2, 4` or `Einträge 2, 4`: the rows of one file are all lines or all entries. */
function placeNames(places: readonly RowPlace[]): string {
  const numbers = places.map((place) => ('line' in place ? place.line : place.entry));
  return `${places.every((place) => 'line' in place) ? 'Zeilen' : 'Einträge'} ${numbers.join(', ')}`;
}

interface RowCheck {
  /** The normalised ID when it is valid, even if other fields are not. */
  matchId?: string;
  record?: MatchRecord;
  reasons: string[];
}

function validateRow({ values, problem }: RawRow): RowCheck {
  const reasons = problem ? [problem] : [];
  const unknown = Object.keys(values).filter((field) => !IMPORT_FIELDS.includes(field));
  if (unknown.length > 0) {
    reasons.push(`Unbekannte Felder: ${unknown.map(describeUnknownField).join(', ')}.`);
  }

  const rawId = values[MATCH_ID_FIELD];
  if (rawId === undefined || rawId === null || (typeof rawId === 'string' && rawId.trim() === '')) {
    return { reasons: [...reasons, `Das Feld ${quote(MATCH_ID_FIELD)} fehlt.`] };
  }
  if (typeof rawId !== 'string' && typeof rawId !== 'number') {
    return {
      reasons: [
        ...reasons,
        `Das Feld ${quote(MATCH_ID_FIELD)} muss Text sein, nicht ${describeValue(rawId)}.`,
      ],
    };
  }
  const matchId = normalizeMatchId(String(rawId));
  const idProblem = matchIdProblem(matchId);
  if (idProblem) {
    return {
      reasons: [
        ...reasons,
        `Das Feld ${quote(MATCH_ID_FIELD)} enthält ${quote(String(rawId))}. ${idProblem}`,
      ],
    };
  }

  const parsed = matchRecordSchema.safeParse({ ...values, [MATCH_ID_FIELD]: matchId });
  if (!parsed.success) {
    const fields = new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? '')));
    for (const field of fields) reasons.push(fieldProblem(field, values[field]));
  }
  for (const [field, value] of Object.entries(values)) {
    if (typeof value === 'string' && MARKUP.test(value)) {
      reasons.push(
        `Das Feld ${quote(field)} enthält HTML oder Skript (${quote((value.match(MARKUP)?.[0] ?? '').slice(0, 40))}).`,
      );
    }
  }
  return { matchId, record: parsed.data, reasons };
}

/**
 * Active markup in a deal value (`<script>`, `<img onerror=…>`, `javascript:`): no CRM field holds it,
 * and such a value is an attack or a pasted web page, not a name or a rate for a contract. Angle
 * brackets as text stay allowed (`Entwickler C++ <Embedded>` is a real position title).
 */
const MARKUP =
  /<\s*\/?\s*(script|style|iframe|frame|object|embed|svg|img|link|meta|base|form)\b[^>]*>?|javascript:/i;

function fieldProblem(field: string, value: unknown): string {
  if (TEXT_FIELDS.has(field)) {
    return `Das Feld ${quote(field)} muss Text sein, nicht ${describeValue(value)}.`;
  }
  if (NUMERIC_FIELDS.has(field)) {
    return `Das Feld ${quote(field)} muss eine Zahl oder Text sein, nicht ${describeValue(value)}.`;
  }
  return `Das Feld ${quote(field)} ist ungültig.`;
}

function describeValue(value: unknown): string {
  if (typeof value === 'number') return `die Zahl ${value}`;
  if (typeof value === 'boolean') return `der Wahrheitswert ${value}`;
  if (Array.isArray(value)) return 'eine Liste';
  return 'ein Objekt';
}

/** Names the field and, for a wrong spelling of a known one, the right spelling. */
function describeUnknownField(name: string): string {
  const meant = IMPORT_FIELDS.find((field) => field.toLowerCase() === name.toLowerCase());
  return meant ? `${quote(name)} (gemeint: ${quote(meant)}?)` : quote(name);
}

function quote(text: string): string {
  return `„${text}“`;
}
