import { displayValue, formatDate, formatHoursPerWeek, formatPaymentTerm, formatPrice } from './format.js';
import type { FieldValue, ResolvedMatch } from './match.js';

/** Values longer than this get the wide layout of the match table. */
export const WIDE_VALUE_THRESHOLD = 40;

type Formatter = (value: FieldValue) => string;

/** `projektpartner` is the only row that is not one match field: it joins first and last name. */
export type DisplayRowKey =
  | keyof Omit<ResolvedMatch, 'matchId' | 'candidateFirstName' | 'candidateLastName'>
  | 'projektpartner';

export interface DisplayRow {
  key: DisplayRowKey;
  label: string;
  value: string;
  wide: boolean;
}

function projektpartner(match: ResolvedMatch): string {
  return [match.candidateFirstName, match.candidateLastName]
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '')
    .join(' ');
}

const ROWS: readonly { key: DisplayRowKey; label: string; format: Formatter }[] = [
  { key: 'beraterJob', label: 'Berater Job', format: displayValue },
  { key: 'beraterKandidat', label: 'Berater Kandidat', format: displayValue },
  { key: 'projektpartner', label: 'Projektpartner', format: displayValue },
  { key: 'ppGesellschaft', label: 'Projektpartner Gesellschaft', format: displayValue },
  { key: 'ppAdresse', label: 'Projektpartner Adresse', format: displayValue },
  { key: 'kunde', label: 'Kunde', format: displayValue },
  { key: 'ansprechpartnerKunde', label: 'Ansprechpartner Kunde', format: displayValue },
  { key: 'adresseKunde', label: 'Adresse Kunde', format: displayValue },
  { key: 'startdatum', label: 'Startdatum', format: formatDate },
  { key: 'enddatum', label: 'Enddatum', format: formatDate },
  { key: 'kuendigungsfristKunde', label: 'Kündigungsfrist', format: displayValue },
  { key: 'zahlungszielPP', label: 'Zahlungsziel PP', format: formatPaymentTerm },
  { key: 'zahlungszielKunde', label: 'Zahlungsziel Kunde', format: formatPaymentTerm },
  { key: 'verguetungssatz', label: 'Vergütungssatz', format: formatPrice },
  { key: 'ek', label: 'EK Remote', format: formatPrice },
  { key: 'vk', label: 'VK Remote', format: formatPrice },
  { key: 'ek2', label: 'EK Onsite', format: formatPrice },
  { key: 'vk2', label: 'VK Onsite', format: formatPrice },
  { key: 'stundenProWoche', label: 'Auslastung', format: formatHoursPerWeek },
  { key: 'einsatzort', label: 'Einsatzort', format: displayValue },
  { key: 'position', label: 'Position', format: displayValue },
  { key: 'aufgabenbeschreibung', label: 'Aufgabenbeschreibung', format: displayValue },
  { key: 'addAgreements', label: 'Zusätzliche Vereinbarungen', format: displayValue },
  { key: 'Anstellungsart', label: 'Anstellungsart', format: displayValue },
  { key: 'vertragspartnerPP', label: 'Vertragspartner PP', format: displayValue },
  { key: 'vertragspartnerKunde', label: 'Vertragspartner Kunde', format: displayValue },
];

/** Label of each display row, e.g. for naming a field in a message. */
export const DISPLAY_LABELS = Object.fromEntries(ROWS.map((row) => [row.key, row.label])) as Record<
  DisplayRowKey,
  string
>;

/** Counted in code points, so that an umlaut or emoji counts as one character as a reader sees it. */
export function isWideValue(value: string): boolean {
  return [...value].length > WIDE_VALUE_THRESHOLD;
}

export function displayRows(match: ResolvedMatch): DisplayRow[] {
  return ROWS.map(({ key, label, format }) => {
    const value = format(key === 'projektpartner' ? projektpartner(match) : match[key]);
    return { key, label, value, wide: isWideValue(value) };
  });
}
