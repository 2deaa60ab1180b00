import type { CalendarDate } from '../format.js';

/**
 * Calendar arithmetic on year, month and day for the notice deadlines. Days are counted through a day
 * number rather than `Date`, so that no time zone, daylight saving time or the two-digit-year rule of
 * `Date.UTC` can move a deadline.
 */

/** Days since 1 March of year 0 of the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
function dayNumber({ year, month, day }: CalendarDate): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra;
}

function dateOfDayNumber(days: number): CalendarDate {
  const era = Math.floor(days / 146_097);
  const dayOfEra = days - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  return dateOfDayNumber(dayNumber(date) + days);
}

/** The month `months` after (or before, when negative) the month of `year`/`month`. */
function shiftMonth(year: number, month: number, months: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + months;
  return { year: Math.floor(index / 12), month: (((index % 12) + 12) % 12) + 1 };
}

function daysInMonth(year: number, month: number): number {
  const next = shiftMonth(year, month, 1);
  return dayNumber({ ...next, day: 1 }) - dayNumber({ year, month, day: 1 });
}

function lastDayOfMonth(year: number, month: number): CalendarDate {
  return { year, month, day: daysInMonth(year, month) };
}

export function isLastDayOfMonth(date: CalendarDate): boolean {
  return date.day === daysInMonth(date.year, date.month);
}

/** The same day number `months` later or earlier, or the last day of that month where it has no such day. */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const target = shiftMonth(date.year, date.month, months);
  return { ...target, day: Math.min(date.day, daysInMonth(target.year, target.month)) };
}

/** The last day of the month `months` after (or before, when negative) the month of `date`. */
export function lastDayOfMonthAfter(date: CalendarDate, months: number): CalendarDate {
  const target = shiftMonth(date.year, date.month, months);
  return lastDayOfMonth(target.year, target.month);
}
