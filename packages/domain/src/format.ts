import { madeOnFirstUse } from './made-on-first-use.js';
import { type FieldValue, isMissing } from './match.js';

/**
 * Formatters shared by the match table and the documents (docs/architecture.md#matches), and the parsers the
 * plausibility checks reuse so that a value is read the same way everywhere.
 */

export const MISSING_VALUE = '/';
export const INVALID_DATE = 'Ungültiges Datum';

/** A date without time or zone: the CRM's dates are calendar days, not instants. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))?$/i;
const GERMAN_DATE = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function calendarDate(year: number, month: number, day: number): CalendarDate | undefined {
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

function inRange(text: string | undefined, max: number): boolean {
  return text === undefined || Number(text) <= max;
}

/**
 * Reads `yyyy-MM-dd`, an ISO date-time or `dd.MM.yyyy` (day and month may have one digit).
 * A date-time yields the calendar day as written, without converting its zone: the result must not
 * depend on the zone of the machine that formats it, and the CRM writes dates as midnight of the day.
 */
export function parseDate(value: FieldValue): CalendarDate | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const iso = ISO_DATE.exec(text);
  if (iso) return calendarDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const isoDateTime = ISO_DATE_TIME.exec(text);
  if (isoDateTime) {
    const [, year, month, day, hour, minute, second, offsetHour, offsetMinute] = isoDateTime;
    const timeValid =
      inRange(hour, 23) &&
      inRange(minute, 59) &&
      inRange(second, 59) &&
      inRange(offsetHour, 23) &&
      inRange(offsetMinute, 59);
    return timeValid ? calendarDate(Number(year), Number(month), Number(day)) : undefined;
  }
  const german = GERMAN_DATE.exec(text);
  if (german) return calendarDate(Number(german[3]), Number(german[2]), Number(german[1]));
  return undefined;
}

/** A calendar day as ISO 8601 (2027-03-31): how days are stored and sent. */
export function isoDate({ year, month, day }: CalendarDate): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Negative when `a` is before `b`, zero on the same day, positive after. */
export function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** The day of `date` in the zone of the running process, which for the browser is the user's. */
const BERLIN_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * The company's calendar day of a moment (Europe/Berlin), whatever zone the process runs in: a server on
 * UTC would otherwise date an hour after midnight in Germany to the day before.
 */
export function berlinCalendarDateOf(date: Date): CalendarDate {
  const [year, month, day] = BERLIN_DAY.format(date).split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

/** The calendar day of a moment in the zone this code runs in: the browser's, for what a person enters. */
export function calendarDateOf(date: Date): CalendarDate {
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}

export function formatCalendarDate({ year, month, day }: CalendarDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(day, 2)}.${pad(month, 2)}.${pad(year, 4)}`;
}

export function formatDate(value: FieldValue): string {
  if (isMissing(value)) return MISSING_VALUE;
  const date = parseDate(value);
  return date ? formatCalendarDate(date) : INVALID_DATE;
}

const CURRENCY = /^(?:(?:€|EUR)\s*)?(-?)([\d.,]+)(?:\s*(?:€|EUR))?$/i;
// A lone dot is a decimal point, as in JSON and every machine export; dots are read as thousands
// separators only in the German grouped form (several groups, or followed by a decimal comma).
const PLAIN_DOT_DECIMAL = /^\d+(?:\.\d+)?$/;
const PLAIN_COMMA_DECIMAL = /^\d+,\d+$/;
const GERMAN_GROUPED = /^\d{1,3}(?:\.\d{3})+(?:,\d+)?$/;
const ENGLISH_GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

/**
 * Reads a number given as a number or as text in German (`1.234,50`) or machine (`1234.5`) notation,
 * optionally with `€` or `EUR`. Anything else is not a number.
 */
export function parseGermanNumber(value: FieldValue): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = CURRENCY.exec(value.trim());
  if (!match) return undefined;
  const [, sign, digits = ''] = match;
  let machine: string;
  if (PLAIN_DOT_DECIMAL.test(digits)) machine = digits;
  else if (PLAIN_COMMA_DECIMAL.test(digits) || GERMAN_GROUPED.test(digits))
    machine = digits.replaceAll('.', '').replace(',', '.');
  else if (ENGLISH_GROUPED.test(digits)) machine = digits.replaceAll(',', '');
  else return undefined;
  return Number(`${sign}${machine}`);
}

// signDisplay 'negative' keeps amounts that round to zero from showing as "-0,00".
const priceFormat = madeOnFirstUse(
  () =>
    new Intl.NumberFormat('de-DE', {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      signDisplay: 'negative',
    }),
);
const numberFormat = madeOnFirstUse(
  () => new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2, signDisplay: 'negative' }),
);

/** A number in German notation with at most two decimals, e.g. `37,5`. */
export function formatGermanNumber(value: number): string {
  return numberFormat().format(value);
}

/**
 * `1.234,50 €` with a plain space before the sign: Intl's currency style puts a non-breaking space
 * there, which breaks string comparison in documents and tests.
 */
export function formatPrice(value: FieldValue): string {
  if (isMissing(value)) return MISSING_VALUE;
  const amount = parseGermanNumber(value);
  return amount === undefined ? String(value) : `${priceFormat().format(amount)} €`;
}

export function formatHoursPerWeek(value: FieldValue): string {
  if (isMissing(value)) return MISSING_VALUE;
  const hours = parseGermanNumber(value);
  return hours === undefined ? String(value) : `${formatGermanNumber(hours)} pro Woche`;
}

const UNIT_NAMES = {
  day: { one: 'Tag', many: 'Tage' },
  week: { one: 'Woche', many: 'Wochen' },
  month: { one: 'Monat', many: 'Monate' },
} as const;
type Unit = keyof typeof UNIT_NAMES;

// Letter lookarounds instead of \b so that "30days" is translated and "Mondays" is not.
const UNIT_WORD = /(?:(\d+(?:[.,]\d+)?)([\s-]*))?(?<!\p{L})(day|week|month)(s?)(?!\p{L})/giu;
const NET_WORD = /(?<!\p{L})net(?!\p{L})/giu;

/** `30 days` → `30 Tage`: the German form follows the number before the unit, else the English form. */
export function formatPaymentTerm(value: FieldValue): string {
  if (isMissing(value)) return MISSING_VALUE;
  return String(value)
    .replace(
      UNIT_WORD,
      (_match, count: string | undefined, gap: string | undefined, unit: string, s: string) => {
        const names = UNIT_NAMES[unit.toLowerCase() as Unit];
        if (count === undefined) return s ? names.many : names.one;
        return `${count}${gap}${parseGermanNumber(count) === 1 ? names.one : names.many}`;
      },
    )
    .replace(NET_WORD, 'netto');
}

const GERMAN_UNITS = {
  tag: { one: 'day', many: 'days' },
  woche: { one: 'week', many: 'weeks' },
  monat: { one: 'month', many: 'months' },
} as const;
const GERMAN_UNIT_WORD = /(?:(\d+(?:[.,]\d+)?)([\s-]*))?(?<!\p{L})(Tag|Woche|Monat)(e|en|n|s)?(?!\p{L})/giu;
const GERMAN_PHRASES: [RegExp, string][] = [
  [/(?<!\p{L})zum Monatsende(?!\p{L})/giu, 'to the end of the month'],
  [/(?<!\p{L})zum Quartalsende(?!\p{L})/giu, 'to the end of the quarter'],
  [/(?<!\p{L})netto(?!\p{L})/giu, 'net'],
];

/**
 * The English counterpart of `formatPaymentTerm` for English contracts: `30 Tage` → `30 days`,
 * `4 Wochen zum Monatsende` → `4 weeks to the end of the month`. Other words stay as the CRM has them.
 */
export function formatPaymentTermEnglish(value: FieldValue): string {
  if (isMissing(value)) return MISSING_VALUE;
  let term = formatPaymentTerm(value).replace(
    GERMAN_UNIT_WORD,
    (
      _match,
      count: string | undefined,
      gap: string | undefined,
      unit: string,
      ending: string | undefined,
    ) => {
      const names = GERMAN_UNITS[unit.toLowerCase() as keyof typeof GERMAN_UNITS];
      if (count === undefined) return ending ? names.many : names.one;
      return `${count}${gap}${parseGermanNumber(count) === 1 ? names.one : names.many}`;
    },
  );
  for (const [pattern, english] of GERMAN_PHRASES) term = term.replace(pattern, english);
  return term;
}

export function displayValue(value: FieldValue): string {
  return isMissing(value) ? MISSING_VALUE : String(value);
}

const berlinFormat = (seconds: boolean) =>
  new Intl.DateTimeFormat('de-DE', {
    timeZone: 'Europe/Berlin',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
  });
const BERLIN_MINUTES = madeOnFirstUse(() => berlinFormat(false));
const BERLIN_SECONDS = madeOnFirstUse(() => berlinFormat(true));

/**
 * `21.11.2026 10:15` in the company's time zone, whatever the machine's zone is; with `seconds`,
 * `21.11.2026 10:15:42` (the completion certificate). Built from the parts, so that no engine's choice
 * of separator between day and time shows.
 */
export function formatDateTime(date: Date, { seconds = false }: { seconds?: boolean } = {}): string {
  const parts = (seconds ? BERLIN_SECONDS : BERLIN_MINUTES)().formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const time = `${part('hour')}:${part('minute')}${seconds ? `:${part('second')}` : ''}`;
  return `${part('day')}.${part('month')}.${part('year')} ${time}`;
}
