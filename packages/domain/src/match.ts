import { z } from 'zod';

/**
 * The match record as the CRM or the import delivers it, and the resolved record the API answers with
 * (docs/architecture.md#matches).
 */

export const MATCH_ID_PREFIX = 'PL-';
export const MATCH_ID_PATTERN = /^PL-[A-Za-z0-9_-]{1,32}$/;

export const matchIdSchema = z.string().regex(MATCH_ID_PATTERN);

/** Fields the CRM delivers as text. */
export const MATCH_TEXT_FIELDS = [
  'beraterJob',
  'beraterKandidat',
  'candidateFirstName',
  'candidateLastName',
  'ppGesellschaft',
  'ppAdresse',
  'kunde',
  'ansprechpartnerKunde',
  'adresseKunde',
  'startdatum',
  'enddatum',
  'kuendigungsfristKunde',
  'kuendigungsfrist',
  'zahlungszielPP',
  'zahlungszielKunde',
  'einsatzort',
  'position',
  'aufgabenbeschreibung',
  'addAgreements',
  'Anstellungsart',
  'vertragspartnerPP',
  'vertragspartnerKunde',
] as const;

/** Rates and hours: CRMs and spreadsheets deliver these as numbers or as text, so both are kept as given. */
export const MATCH_NUMERIC_FIELDS = [
  'verguetungssatz',
  'ek',
  'vk',
  'ek2',
  'vk2',
  'tagessatzEk',
  'tagessatzRemote',
  'tagessatzEk2',
  'tagessatzOnsite',
  'stundenProWoche',
] as const;

export type MatchTextField = (typeof MATCH_TEXT_FIELDS)[number];
export type MatchNumericField = (typeof MATCH_NUMERIC_FIELDS)[number];
export type MatchField = MatchTextField | MatchNumericField;

/** A raw field value as it reaches the formatters. */
export type FieldValue = string | number | null | undefined;

// CRMs send null for empty fields; mapping it to undefined gives every consumer one notion of "missing".
const nullAsMissing = (value: unknown) => (value === null ? undefined : value);
const textField = z.preprocess(nullAsMissing, z.string().optional());
const numericField = z.preprocess(nullAsMissing, z.union([z.string(), z.number()]).optional());

const textShape = Object.fromEntries(MATCH_TEXT_FIELDS.map((f) => [f, textField])) as Record<
  MatchTextField,
  typeof textField
>;
const numericShape = Object.fromEntries(MATCH_NUMERIC_FIELDS.map((f) => [f, numericField])) as Record<
  MatchNumericField,
  typeof numericField
>;

/** The fields of a match without its ID, e.g. as an external CRM answers for a requested ID. */
export const matchFieldsSchema = z.object({ ...textShape, ...numericShape });
export type MatchFields = z.infer<typeof matchFieldsSchema>;

/** A match record with its ID: one row of an import, one entry of the built-in match store. */
export const matchRecordSchema = matchFieldsSchema.extend({ matchId: matchIdSchema });
export type MatchRecord = z.infer<typeof matchRecordSchema>;

/** Primary field and the field used when the primary one is missing or blank. */
export const MATCH_FALLBACKS = {
  kuendigungsfristKunde: 'kuendigungsfrist',
  ek: 'tagessatzEk',
  vk: 'tagessatzRemote',
  ek2: 'tagessatzEk2',
  vk2: 'tagessatzOnsite',
} as const satisfies Partial<Record<MatchField, MatchField>>;

type FallbackSource = (typeof MATCH_FALLBACKS)[keyof typeof MATCH_FALLBACKS];

/** The match with fallbacks applied, fallback source fields dropped. */
export const resolvedMatchSchema = matchFieldsSchema
  .omit({
    kuendigungsfrist: true,
    tagessatzEk: true,
    tagessatzRemote: true,
    tagessatzEk2: true,
    tagessatzOnsite: true,
  } satisfies Record<FallbackSource, true>)
  .extend({ matchId: matchIdSchema });
export type ResolvedMatch = z.infer<typeof resolvedMatchSchema>;

/**
 * The match as the API answers with it. `cachedAt` (ISO date-time) is set when the CRM could not answer
 * and the match is the CRM's record as fetched at that time.
 */
export const matchAnswerSchema = resolvedMatchSchema.extend({
  cachedAt: z.iso.datetime({ offset: true }).optional(),
});
export type MatchAnswer = z.infer<typeof matchAnswerSchema>;

/** True when a field value counts as absent: missing, null, or text that is blank. */
export function isMissing(value: FieldValue): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function firstPresent<T extends FieldValue>(primary: T, fallback: T): T | undefined {
  if (!isMissing(primary)) return primary;
  if (!isMissing(fallback)) return fallback;
  return undefined;
}

export function resolveMatch(record: MatchRecord): ResolvedMatch {
  const { kuendigungsfrist, tagessatzEk, tagessatzRemote, tagessatzEk2, tagessatzOnsite, ...rest } = record;
  return {
    ...rest,
    kuendigungsfristKunde: firstPresent(record.kuendigungsfristKunde, kuendigungsfrist),
    ek: firstPresent(record.ek, tagessatzEk),
    vk: firstPresent(record.vk, tagessatzRemote),
    ek2: firstPresent(record.ek2, tagessatzEk2),
    vk2: firstPresent(record.vk2, tagessatzOnsite),
  };
}

/** Users type IDs with or without the prefix and in any case; the CRM knows them only as `PL-…`. */
export function normalizeMatchId(input: string): string {
  const trimmed = input.trim();
  const withoutPrefix = trimmed.toLowerCase().startsWith('pl-') ? trimmed.slice(3) : trimmed;
  return `${MATCH_ID_PREFIX}${withoutPrefix}`;
}

export function isValidMatchId(value: string): boolean {
  return MATCH_ID_PATTERN.test(value);
}
