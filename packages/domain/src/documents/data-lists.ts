import { z } from 'zod';
import {
  type CalendarDate,
  compareCalendarDates,
  formatCalendarDate,
  isoDate,
  parseDate,
  parseGermanNumber,
} from '../format.js';
import type { ResolvedMatch } from '../match.js';
import type { FormName } from '../permissions.js';
import type { CatalogueEntry } from './catalogue.js';

/**
 * The `dataList` of each form, shared by browser and server. The server also checks the
 * list against the key it came with (`dataListIssues`): a list may be well-formed and still not fit.
 */

/** Deliberately simple: text, @, text, dot, text. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Blank means "not given": forms send empty strings for untouched optional fields. */
const optionalText = (max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.string().trim().max(max).optional(),
  );
const optionalEmail = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z.string().trim().max(320).regex(EMAIL_PATTERN, 'Keine gültige E-Mail-Adresse.').optional(),
);

/**
 * The optional clauses the person generating ticked (true) or unticked (false), by clause key; a clause not
 * named takes its default. Every form may send it: which clauses a template offers is the server's to know.
 */
const clauseSwitches = z
  .record(z.string().max(40), z.boolean({ error: 'Eine Klausel ist gewählt oder nicht (ja/nein).' }))
  .optional();

/** Offer and termination also accept `client` for the customer, as the earlier tool's forms sent it. */
export const partnerTypeSchema = z.preprocess(
  (value) => (value === 'client' ? 'k' : value),
  z.enum(['k', 'pp']),
);

export const esignatureDataListSchema = z.object({
  klauseln: clauseSwitches,
  Absender_UserName: optionalText(200),
  Absender_Email: optionalEmail,
  Projektpartner_UserName: optionalText(200),
  Projektpartner_Email: optionalEmail,
  Kunde_UserName: optionalText(200),
  Kunde_Email: optionalEmail,
  Kunde2_UserName: optionalText(200),
  Kunde2_Email: optionalEmail,
  CC_UserName: optionalText(200),
  CC_Email: optionalEmail,
  vertragspartner_type: partnerTypeSchema,
});

/** A count a user types: a number or a numeric string, with a sensible upper bound. */
const volume = (max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value.replace(',', '.')) : value),
    z.number({ error: 'Bitte gib eine Zahl ein.' }).finite().min(0).max(max),
  );

export const offerDataListSchema = z.object({
  klauseln: clauseSwitches,
  projectHours: volume(100_000),
  projectDays: volume(10_000),
  selectedPerson: z.string().trim().min(1, 'Bitte wähle aus, wer unterschreibt.').max(100),
  vertragspartner_type: partnerTypeSchema,
});

export const terminationDataListSchema = z.object({
  klauseln: clauseSwitches,
  selectedPerson: z.string().trim().min(1, 'Bitte wähle aus, wer unterschreibt.').max(100),
  position: z.string().trim().min(1, 'Bitte gib die Position an.').max(300),
  vertragspartner_type: partnerTypeSchema,
});

export const partnerOnlyDataListSchema = z.object({
  vertragspartner_type: partnerTypeSchema,
  klauseln: clauseSwitches,
});

/** A field left empty: forms send an empty string or null. */
const blankAsMissing = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

/** A calendar day as a form or a CSV gives it: 2027-03-31 or 31.03.2027, kept as ISO. */
const optionalDay = z.preprocess(
  blankAsMissing,
  z
    .string({ error: 'Bitte gib ein Datum an (TT.MM.JJJJ).' })
    .trim()
    .max(30)
    .refine((text) => parseDate(text) !== undefined, 'Kein gültiges Datum (TT.MM.JJJJ).')
    .transform((text) => isoDate(parseDate(text) as CalendarDate))
    .optional(),
);

/** An amount or count as a person types it in German (95,50 or 1.234,50), kept as a number. */
const optionalAmount = (max: number, message: string) =>
  z.preprocess((value) => {
    const given = blankAsMissing(value);
    if (typeof given !== 'string') return given;
    return parseGermanNumber(given.replace(/\s*(€|EUR|h)$/i, '')) ?? given;
  }, z.number({ error: message }).finite().positive(message).max(max, message).optional());

/**
 * Additional agreements. An extension (Verlängerung) also names the new end and, where they change, the
 * new rates — of the document's side: VK for the customer, EK for the project partner — and hours per week.
 */
export const agreementDataListSchema = partnerOnlyDataListSchema.extend({
  neuesEnde: optionalDay,
  neuerSatzRemote: optionalAmount(100_000, 'Bitte gib einen Stundensatz zwischen 0 und 100.000 € an.'),
  neuerSatzOnsite: optionalAmount(100_000, 'Bitte gib einen Stundensatz zwischen 0 und 100.000 € an.'),
  neueStundenProWoche: optionalAmount(80, 'Bitte gib die Stunden pro Woche an (mehr als 0, höchstens 80).'),
});

export const DATA_LIST_SCHEMAS = {
  docusign: esignatureDataListSchema,
  docx: partnerOnlyDataListSchema,
  termination: terminationDataListSchema,
  offer: offerDataListSchema,
  agreement: agreementDataListSchema,
} as const satisfies Record<FormName, z.ZodType>;

export type EsignatureDataList = z.infer<typeof esignatureDataListSchema>;
export type OfferDataList = z.infer<typeof offerDataListSchema>;
export type TerminationDataList = z.infer<typeof terminationDataListSchema>;
export type AgreementDataList = z.infer<typeof agreementDataListSchema>;
export type DataList =
  | EsignatureDataList
  | OfferDataList
  | TerminationDataList
  | AgreementDataList
  | z.infer<typeof partnerOnlyDataListSchema>;

/** Whether a key makes an extension (Verlängerung). */
export function isExtension(entry: CatalogueEntry): boolean {
  return entry.params.family === 'agreement' && entry.params.agreement === 'extension';
}

/**
 * What a checked dataList and the deal say together: an extension cannot end before its contract began.
 * Empty when they fit. (A new end on or before the CRM's end is allowed: the CRM often has the new end
 * already.)
 */
export function dealIssues(
  entry: CatalogueEntry,
  match: Pick<ResolvedMatch, 'startdatum'>,
  dataList: DataList,
): Record<string, string[]> {
  if (!isExtension(entry)) return {};
  const newEnd = parseDate((dataList as AgreementDataList).neuesEnde);
  const start = parseDate(match.startdatum);
  if (newEnd && start && compareCalendarDates(newEnd, start) < 0) {
    return {
      neuesEnde: [
        `Das neue Ende (${formatCalendarDate(newEnd)}) liegt vor dem Beginn des Vertrags (${formatCalendarDate(start)}).`,
      ],
    };
  }
  return {};
}

/** The body of every generation call. */
export const generationRequestSchema = z.object({ dataList: z.record(z.string(), z.unknown()) });

export type DataListCheck =
  | { ok: true; dataList: DataList }
  | { ok: false; fields: Record<string, string[]> };

/**
 * Parses a dataList for the key it came with: the form's schema, the partner type the key names, and
 * the signers the key needs (sender always; the project partner, or one or two customer signers).
 */
export function checkDataList(entry: CatalogueEntry, raw: unknown): DataListCheck {
  const parsed = DATA_LIST_SCHEMAS[entry.form].safeParse(raw);
  const fields: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    fields[field] = [...(fields[field] ?? []), message];
  };
  if (!parsed.success) {
    for (const issue of parsed.error.issues) add(issue.path.join('.') || 'dataList', issue.message);
    return { ok: false, fields };
  }
  const dataList = parsed.data;
  if (dataList.vertragspartner_type !== entry.params.partner) {
    add('vertragspartner_type', `Passt nicht zum Dokument (erwartet: ${entry.params.partner}).`);
  }
  if (isExtension(entry) && !(dataList as AgreementDataList).neuesEnde) {
    add('neuesEnde', 'Bitte gib das neue Vertragsende an.');
  }
  if (entry.form === 'docusign' && entry.params.family === 'contract') {
    const list = dataList as EsignatureDataList;
    const requirePerson = (role: 'Absender' | 'Projektpartner' | 'Kunde' | 'Kunde2') => {
      if (!list[`${role}_UserName`]) add(`${role}_UserName`, 'Bitte gib einen Namen ein.');
      if (!list[`${role}_Email`]) add(`${role}_Email`, 'Bitte gib eine E-Mail-Adresse ein.');
    };
    requirePerson('Absender');
    if (entry.params.partner === 'pp') requirePerson('Projektpartner');
    else requirePerson('Kunde');
    if (entry.params.customerSigners === 2) requirePerson('Kunde2');
    if (Boolean(list.CC_UserName) !== Boolean(list.CC_Email)) {
      add(
        list.CC_UserName ? 'CC_Email' : 'CC_UserName',
        'Für eine Kopie braucht es Name und E-Mail-Adresse.',
      );
    }
  }
  return Object.keys(fields).length > 0 ? { ok: false, fields } : { ok: true, dataList };
}
