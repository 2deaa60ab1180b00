import { formatDate, formatDateTime } from '@vertragsgenerator/domain';
import { contractsTexts as t } from './texts';

/** A record's ISO date (`2027-12-31`) as the page shows it (`31.12.2027`); none as a dash. */
export function shownDate(iso: string | null): string {
  return iso ? formatDate(iso) : t.none;
}

/** The day a record was signed, in the company's time zone. */
export function signedDay(at: string): string {
  return formatDateTime(new Date(at)).slice(0, 10);
}
