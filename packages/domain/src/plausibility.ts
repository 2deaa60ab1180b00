import { DISPLAY_LABELS } from './display.js';
import {
  calendarDateOf,
  compareCalendarDates,
  formatCalendarDate,
  formatGermanNumber,
  formatPrice,
  parseDate,
  parseGermanNumber,
} from './format.js';
import type { MatchField, ResolvedMatch } from './match.js';

/**
 * Warnings about deal data that is readable but unlikely to be right. They never block: the user may
 * know better, and the fix belongs in the CRM anyway. Values that cannot be read give no
 * hint, because the table already shows them as invalid.
 */

export const MIN_HOURS_PER_WEEK = 1;
export const MAX_HOURS_PER_WEEK = 60;

export type HintCode =
  | 'end-before-start'
  | 'vk-below-ek-remote'
  | 'vk-below-ek-onsite'
  | 'hours-out-of-range'
  | 'start-in-past';

export interface Hint {
  code: HintCode;
  /** German, addressed to the user, naming the field to correct in the CRM. */
  message: string;
  /** The match fields the hint is about, e.g. to mark their rows. */
  fields: MatchField[];
}

function vkBelowEk(
  match: ResolvedMatch,
  ekField: 'ek' | 'ek2',
  vkField: 'vk' | 'vk2',
  code: HintCode,
): Hint[] {
  const ek = parseGermanNumber(match[ekField]);
  const vk = parseGermanNumber(match[vkField]);
  if (ek === undefined || vk === undefined || vk >= ek) return [];
  const ekLabel = DISPLAY_LABELS[ekField];
  const vkLabel = DISPLAY_LABELS[vkField];
  return [
    {
      code,
      message: `${vkLabel} (${formatPrice(vk)}) liegt unter ${ekLabel} (${formatPrice(ek)}). Bitte prüfe ${ekLabel} und ${vkLabel} im CRM.`,
      fields: [ekField, vkField],
    },
  ];
}

export function plausibilityHints(match: ResolvedMatch, today: Date): Hint[] {
  const hints: Hint[] = [];
  const start = parseDate(match.startdatum);
  const end = parseDate(match.enddatum);

  if (start && end && compareCalendarDates(end, start) < 0) {
    hints.push({
      code: 'end-before-start',
      message: `Das Enddatum (${formatCalendarDate(end)}) liegt vor dem Startdatum (${formatCalendarDate(start)}). Bitte korrigiere Startdatum oder Enddatum im CRM.`,
      fields: ['startdatum', 'enddatum'],
    });
  }

  hints.push(...vkBelowEk(match, 'ek', 'vk', 'vk-below-ek-remote'));
  hints.push(...vkBelowEk(match, 'ek2', 'vk2', 'vk-below-ek-onsite'));

  const hours = parseGermanNumber(match.stundenProWoche);
  if (hours !== undefined && (hours < MIN_HOURS_PER_WEEK || hours > MAX_HOURS_PER_WEEK)) {
    hints.push({
      code: 'hours-out-of-range',
      message: `Die Auslastung von ${formatGermanNumber(hours)} Stunden pro Woche liegt außerhalb von ${MIN_HOURS_PER_WEEK} bis ${MAX_HOURS_PER_WEEK} Stunden. Bitte korrigiere die Auslastung (Stunden pro Woche) im CRM.`,
      fields: ['stundenProWoche'],
    });
  }

  if (start && compareCalendarDates(start, calendarDateOf(today)) < 0) {
    hints.push({
      code: 'start-in-past',
      message: `Das Startdatum (${formatCalendarDate(start)}) liegt in der Vergangenheit. Bitte prüfe das Startdatum im CRM.`,
      fields: ['startdatum'],
    });
  }

  return hints;
}
