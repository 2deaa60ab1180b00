import { DISPLAY_LABELS } from '../display.js';
import { parseDate, parseGermanNumber } from '../format.js';
import { type FieldValue, isMissing, type ResolvedMatch } from '../match.js';
import type { AgreementType, CatalogueEntry } from './catalogue.js';
import type { TEMPLATE_FIELDS, TemplateFieldName } from './template-fields.js';

/**
 * Which values of the match each text field of the dictionary shows, so that a form can name the
 * values a key's template needs but the match lacks before the document shows blank lines (issue 5).
 * It mirrors `buildTemplateData`; its test proves that field by field.
 */

/** A field of the match as the API answers with it (fallbacks already resolved, `MATCH_FALLBACKS`). */
export type ResolvedMatchField = Exclude<keyof ResolvedMatch, 'matchId'>;

export type TemplateTextField = {
  [K in TemplateFieldName]: (typeof TEMPLATE_FIELDS)[K]['kind'] extends 'text' ? K : never;
}[TemplateFieldName];

export interface MatchFieldSource {
  /** The match fields the text shows, e.g. first and last name joined. */
  shows: readonly ResolvedMatchField[];
  /** Shown instead when every field of `shows` is missing: a partner without a company is named by their name. */
  otherwise?: readonly ResolvedMatchField[];
  /** The text is a blank line unless the value parses as this: a contract never prints an unusable date. */
  parses?: 'date' | 'number';
}

/** Where a text field differs by the key: by the other party (k, pp), or by form and family. */
export type TemplateFieldSource =
  | MatchFieldSource
  | { k: MatchFieldSource; pp: MatchFieldSource }
  | ((entry: CatalogueEntry) => MatchFieldSource | undefined);

const show = (...shows: ResolvedMatchField[]): MatchFieldSource => ({ shows });
const PERSON_NAME: readonly ResolvedMatchField[] = ['candidateFirstName', 'candidateLastName'];
/** An extension's values come from its form, not the match. */
const AGREEMENT_SOURCES: Readonly<Record<AgreementType, MatchFieldSource | undefined>> = {
  descr: show('aufgabenbeschreibung'),
  hours: show('stundenProWoche'),
  misc: show('addAgreements'),
  extension: undefined,
};

/** Text fields that show nothing of the match (our company, signatory, date, dataList) have no entry. */
export const TEMPLATE_FIELD_SOURCES: Readonly<Partial<Record<TemplateTextField, TemplateFieldSource>>> = {
  partnerName: {
    k: show('kunde'),
    pp: { shows: ['ppGesellschaft'], otherwise: PERSON_NAME },
  },
  partnerAdresse: { k: show('adresseKunde'), pp: show('ppAdresse') },
  partnerAnsprechpartner: { k: show('ansprechpartnerKunde'), pp: { shows: PERSON_NAME } },

  beraterJob: show('beraterJob'),
  beraterKandidat: show('beraterKandidat'),
  projektpartnerName: { shows: PERSON_NAME },
  projektpartnerGesellschaft: show('ppGesellschaft'),
  projektpartnerAdresse: show('ppAdresse'),
  kunde: show('kunde'),
  ansprechpartnerKunde: show('ansprechpartnerKunde'),
  adresseKunde: show('adresseKunde'),
  startdatum: { shows: ['startdatum'], parses: 'date' },
  enddatum: { shows: ['enddatum'], parses: 'date' },
  kuendigungsfrist: show('kuendigungsfristKunde'),
  zahlungsziel: { k: show('zahlungszielKunde'), pp: show('zahlungszielPP') },
  zahlungszielKunde: show('zahlungszielKunde'),
  zahlungszielPP: show('zahlungszielPP'),
  verguetungssatz: show('verguetungssatz'),
  stundensatzRemote: { k: show('vk'), pp: show('ek') },
  stundensatzOnsite: { k: show('vk2'), pp: show('ek2') },
  stundenProWoche: show('stundenProWoche'),
  einsatzort: show('einsatzort'),
  position: show('position'),
  aufgabenbeschreibung: show('aufgabenbeschreibung'),
  zusatzvereinbarungen: show('addAgreements'),
  anstellungsart: show('Anstellungsart'),

  // A termination names the position its form holds, every other document the match's.
  kuendigungPosition: (entry) => (entry.form === 'termination' ? undefined : show('position')),
  angebotStundensatz: (entry) => (entry.form === 'offer' ? show('vk') : undefined),
  // The total needs the rate as a number; any other text leaves it blank.
  angebotSumme: (entry) => (entry.form === 'offer' ? { shows: ['vk'], parses: 'number' } : undefined),
  zusatzText: ({ params }) =>
    params.family === 'agreement' ? AGREEMENT_SOURCES[params.agreement] : undefined,
};

/** The match fields a text field shows in a document of this key; undefined when it shows none. */
export function matchFieldSource(
  field: TemplateFieldName,
  entry: CatalogueEntry,
): MatchFieldSource | undefined {
  const source = (TEMPLATE_FIELD_SOURCES as Partial<Record<TemplateFieldName, TemplateFieldSource>>)[field];
  if (typeof source === 'function') return source(entry);
  if (source && 'k' in source) return source[entry.params.partner];
  return source;
}

/**
 * German label of each match field, in the order of the match table; the name fields share the row
 * `Projektpartner`.
 */
export const MATCH_FIELD_LABELS = Object.fromEntries(
  Object.entries(DISPLAY_LABELS).flatMap(([row, label]) =>
    row === 'projektpartner'
      ? [
          ['candidateFirstName', label],
          ['candidateLastName', label],
        ]
      : [[row, label]],
  ),
) as Readonly<Record<ResolvedMatchField, string>>;

export interface MissingMatchValue {
  field: ResolvedMatchField;
  label: string;
}

function showsBlank(value: FieldValue, parses: MatchFieldSource['parses']): boolean {
  if (isMissing(value)) return true;
  if (parses === 'date') return parseDate(value) === undefined;
  if (parses === 'number') return parseGermanNumber(value) === undefined;
  return false;
}

/** The fields of a source the match lacks; the fallback's count only when it is shown. */
function lackingFields(source: MatchFieldSource, match: ResolvedMatch): ResolvedMatchField[] {
  const lacking = source.shows.filter((field) => showsBlank(match[field], source.parses));
  if (lacking.length < source.shows.length || !source.otherwise) return lacking;
  const lackingFallback = source.otherwise.filter((field) => showsBlank(match[field], source.parses));
  return lackingFallback.length < source.otherwise.length
    ? lackingFallback
    : [...lacking, ...lackingFallback];
}

/**
 * The values a document of this key shows as blank lines because the match lacks them, given the
 * text fields its template shows: in the order of the match table, one entry per label (a missing
 * first and last name is one `Projektpartner`).
 */
export function missingMatchValues(
  entry: CatalogueEntry,
  match: ResolvedMatch,
  shownFields: Iterable<TemplateFieldName>,
): MissingMatchValue[] {
  const lacking = new Set<ResolvedMatchField>();
  for (const field of shownFields) {
    const source = matchFieldSource(field, entry);
    if (source) for (const matchField of lackingFields(source, match)) lacking.add(matchField);
  }
  const missing: MissingMatchValue[] = [];
  for (const [field, label] of Object.entries(MATCH_FIELD_LABELS) as [ResolvedMatchField, string][]) {
    if (lacking.has(field) && !missing.some((value) => value.label === label)) missing.push({ field, label });
  }
  return missing;
}
