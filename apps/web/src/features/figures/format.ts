/** Months and numbers as /auswertung shows them. */

const monthDate = (month: string) => new Date(`${month}-01T00:00:00Z`);
const longMonth = new Intl.DateTimeFormat('de-DE', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortMonth = new Intl.DateTimeFormat('de-DE', { month: 'short', year: '2-digit', timeZone: 'UTC' });
const decimal = new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1 });

/** `2026-06` → „Juni 2026“ (tables). */
export const monthLong = (month: string) => longMonth.format(monthDate(month));

/** `2026-06` → „Juni 26“ (a chart's axis). */
export const monthShort = (month: string) => shortMonth.format(monthDate(month));

/** A duration or count with at most one decimal, German style; a missing one as a dash. */
export const number = (value: number | null) => (value === null ? '–' : decimal.format(value));

/** `2026-06-15` → „15.06.2026“. */
export function dayOf(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${day}.${month}.${year}`;
}
