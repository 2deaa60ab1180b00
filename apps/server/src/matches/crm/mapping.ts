import { readFile } from 'node:fs/promises';
import {
  formatGermanNumber,
  MATCH_NUMERIC_FIELDS,
  MATCH_TEXT_FIELDS,
  type MatchField,
  type MatchRecord,
  normalizeMatchId,
  parseDate,
  parseGermanNumber,
  type ResolvedMatch,
  resolveMatch,
} from '@vertragsgenerator/domain';
import { z } from 'zod';
import { ConfigError } from '../../config/config.js';
import { MatchUnreadableError } from '../match-source.js';

/**
 * The declarative mapping from a CRM's JSON record to our match fields (docs/crm.md): where each
 * field sits in the record, where to look when it is empty, and how to read its value.
 */

export const CRM_FORMATS = ['text', 'number', 'date', 'days', 'join', 'address'] as const;
export type CrmFormat = (typeof CRM_FORMATS)[number];

/** One step of a path: a property name or an array index. */
type PathStep = string | number;

// A property is anything but a dot, a bracket or whitespace, so CRM names like `Account__r` or
// `custom-field` need no quoting; an index is a bracketed number.
const PATH_PATTERN = /^(?:[^.[\]\s]+|\[\d+\])(?:\.[^.[\]\s]+|\[\d+\])*$/;
const PATH_STEP = /([^.[\]\s]+)|\[(\d+)\]/g;

export function parsePath(path: string): PathStep[] {
  return [...path.matchAll(PATH_STEP)].map(([, name, index]) =>
    index === undefined ? (name as string) : Number(index),
  );
}

const pathSchema = z
  .string()
  .regex(
    PATH_PATTERN,
    'not a path: property names joined by dots, array indexes in brackets (e.g. contacts[0].email)',
  );

// A bare string is the short form of `{ "path": … }`; one object schema keeps zod's issues precise.
const fieldMappingSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { path: value } : value),
  z.strictObject({
    path: pathSchema,
    fallbacks: z.array(pathSchema).default([]),
    format: z.enum(CRM_FORMATS).optional(),
    separator: z.string().optional(),
    required: z.boolean().default(false),
  }),
);

const MATCH_FIELDS: readonly MatchField[] = [...MATCH_TEXT_FIELDS, ...MATCH_NUMERIC_FIELDS];

const NUMERIC_FIELDS: ReadonlySet<string> = new Set(MATCH_NUMERIC_FIELDS);

/** A field the CRM's record is written to: an API name such as `Vertragsstatus__c`. */
const writebackFieldSchema = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_]*$/,
    'not a field API name (letters, digits, underscores), e.g. Vertragsstatus__c',
  );

/** What is written back to the match's record (Salesforce; docs/crm.md "Write-back"). */
const writebackSchema = z.strictObject({
  /** Each status change: the contract's status in German (Versendet, Unterschrieben, …). */
  status: writebackFieldSchema.optional(),
  /** Each status change: when it happened. */
  statusChangedAt: writebackFieldSchema.optional(),
  /** On completion: when the last signature was given. */
  signedAt: writebackFieldSchema.optional(),
  /** On completion the sealed PDF is attached to the record as a file, unless this is false. */
  attachSealedPdf: z.boolean().default(true),
});

const mappingFileSchema = z
  .strictObject({
    matchId: pathSchema,
    fields: z.partialRecord(z.enum(MATCH_FIELDS as [MatchField, ...MatchField[]]), fieldMappingSchema),
    writeback: writebackSchema.optional(),
  })
  .superRefine(({ fields }, context) => {
    for (const [field, mapping] of Object.entries(fields)) {
      if (mapping.format === 'number' && !NUMERIC_FIELDS.has(field)) {
        context.addIssue({
          code: 'custom',
          path: ['fields', field, 'format'],
          message: `"number" is for rate and hour fields (${MATCH_NUMERIC_FIELDS.join(', ')}); ${field} is text`,
        });
      }
    }
  });

export interface FieldMapping {
  path: string;
  fallbacks: string[];
  format?: CrmFormat;
  separator?: string;
  required: boolean;
}

export interface CrmMapping {
  /** Path of the match ID (`PL-…`) in the record. */
  matchId: string;
  fields: Partial<Record<MatchField, FieldMapping>>;
  /** What is written back to the record; absent: nothing. */
  writeback?: CrmWritebackMapping;
}

export type CrmWritebackMapping = z.infer<typeof writebackSchema>;

/** Every path the mapping reads, once each, in mapping order: what a query must select. */
export function mappedPaths(mapping: CrmMapping): string[] {
  const paths = [mapping.matchId];
  for (const field of Object.values(mapping.fields)) paths.push(field.path, ...field.fallbacks);
  return [...new Set(paths)];
}

export function parseCrmMapping(json: unknown, source: string): CrmMapping {
  const parsed = mappingFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const at = issue.path.map(String).join('.');
      const value = valueAt(json, issue.path);
      const shown = typeof value === 'string' ? ` ("${value}")` : '';
      // A misspelt match field is the likeliest mistake: the answer lists the right spellings.
      const known =
        issue.code === 'unrecognized_keys' && at === 'fields'
          ? `; match fields are ${MATCH_FIELDS.join(', ')}`
          : '';
      return `${at || '(file)'}${shown}: ${issue.message}${known}`;
    });
    throw new ConfigError(`Invalid CRM mapping ${source}:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}

export async function loadCrmMapping(file: string): Promise<CrmMapping> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  CRM_MAPPING_FILE: cannot read ${file} (${(error as Error).message})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`Invalid CRM mapping ${file}: not JSON (${(error as Error).message})`);
  }
  return parseCrmMapping(json, file);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const step of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[step];
  }
  return value;
}

/** The value at a path; undefined when any step is missing or null, as CRMs send null for empty fields. */
export function readPath(record: unknown, path: string): unknown {
  const value = valueAt(record, parsePath(path));
  return value === null ? undefined : value;
}

function isBlank(value: unknown): boolean {
  return value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** A value the format cannot read: the reason, in German, for the user and the log. */
class FormatProblem extends Error {}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'eine Liste';
  if (typeof value === 'object') return 'ein Objekt';
  return `„${String(value)}“`;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new FormatProblem(`erwartet Text, erhalten ${describe(value)}`);
}

function asNumber(value: unknown): number {
  const number =
    typeof value === 'number' || typeof value === 'string' ? parseGermanNumber(value) : undefined;
  if (number === undefined) throw new FormatProblem(`erwartet eine Zahl, erhalten ${describe(value)}`);
  return number;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

const ADDRESS_KEYS = {
  street: ['street', 'strasse', 'straße'],
  postalCode: ['postalCode', 'zip', 'zipCode', 'postcode', 'plz'],
  city: ['city', 'ort'],
  country: ['country', 'land'],
};

function addressPart(address: Record<string, unknown>, keys: readonly string[]): string {
  const key = Object.keys(address).find((candidate) =>
    keys.some((k) => k.toLowerCase() === candidate.toLowerCase()),
  );
  const value = key === undefined ? undefined : address[key];
  return value === undefined || value === null ? '' : asText(value).trim();
}

const FORMATTERS: Record<CrmFormat, (value: unknown, mapping: FieldMapping) => string | number> = {
  text: asText,
  number: asNumber,
  // Stored as `yyyy-MM-dd`, the form of the import and the demo data, whatever form the CRM sends.
  date: (value) => {
    const date = parseDate(asText(value));
    if (!date)
      throw new FormatProblem(`erwartet ein Datum (2027-01-31 oder 31.01.2027), erhalten ${describe(value)}`);
    return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
  },
  days: (value) => {
    const days = asNumber(value);
    return `${formatGermanNumber(days)} ${days === 1 ? 'Tag' : 'Tage'}`;
  },
  join: (value, { separator = ', ' }) => {
    if (!Array.isArray(value)) throw new FormatProblem(`erwartet eine Liste, erhalten ${describe(value)}`);
    return value
      .filter((entry) => entry !== null && !isBlank(entry))
      .map(asText)
      .join(separator);
  },
  address: (value, { separator = ', ' }) => {
    if (typeof value === 'string') return value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new FormatProblem(
        `erwartet eine Adresse (Objekt mit street, postalCode, city), erhalten ${describe(value)}`,
      );
    }
    const address = value as Record<string, unknown>;
    const place = [addressPart(address, ADDRESS_KEYS.postalCode), addressPart(address, ADDRESS_KEYS.city)]
      .filter(Boolean)
      .join(' ');
    return [addressPart(address, ADDRESS_KEYS.street), place, addressPart(address, ADDRESS_KEYS.country)]
      .filter(Boolean)
      .join(separator);
  },
};

/** Without a format, numbers stay numbers in rate fields (like the import) and become text elsewhere. */
function readValue(field: MatchField, value: unknown, mapping: FieldMapping): string | number {
  if (mapping.format) return FORMATTERS[mapping.format](value, mapping);
  if (NUMERIC_FIELDS.has(field) && typeof value === 'number') return asNumber(value);
  return asText(value);
}

export type MappedRecord = { kind: 'match'; match: ResolvedMatch } | { kind: 'other'; matchId: unknown };

/**
 * The match in a CRM record. `other` when the record carries no or another match ID (e.g. a search
 * that found nothing or something else): the CRM does not know the requested match. Throws
 * `MatchUnreadableError` naming field and path when a required field is missing or a value is
 * unreadable: that is a problem of the data in the CRM, which asking again does not fix.
 */
export function mapCrmRecord(mapping: CrmMapping, record: unknown, requestedId: string): MappedRecord {
  const rawId = readPath(record, mapping.matchId);
  const matchId =
    typeof rawId === 'string' || typeof rawId === 'number' ? normalizeMatchId(String(rawId)) : undefined;
  if (matchId !== requestedId) return { kind: 'other', matchId: rawId };

  const fields: Partial<Record<MatchField, string | number>> = {};
  for (const [field, fieldMapping] of Object.entries(mapping.fields) as [MatchField, FieldMapping][]) {
    const paths = [fieldMapping.path, ...fieldMapping.fallbacks];
    const found = paths
      .map((path) => ({ path, value: readPath(record, path) }))
      .find(({ value }) => !isBlank(value));
    if (!found) {
      if (fieldMapping.required) throw unreadable(field, paths.join(' | '), 'Pflichtfeld fehlt');
      continue;
    }
    try {
      fields[field] = readValue(field, found.value, fieldMapping);
    } catch (error) {
      if (!(error instanceof FormatProblem)) throw error;
      throw unreadable(field, found.path, error.message);
    }
  }
  return { kind: 'match', match: resolveMatch({ ...fields, matchId } as MatchRecord) };
}

function unreadable(field: MatchField, path: string, reason: string): MatchUnreadableError {
  return new MatchUnreadableError(
    `CRM record: field ${field} (path ${path}): ${reason}`,
    `Das CRM hat für diesen Match Daten geliefert, die nicht gelesen werden können (Feld „${field}“: ${reason}). Bitte korrigiere den Match im CRM und gib die ID erneut ein.`,
  );
}
