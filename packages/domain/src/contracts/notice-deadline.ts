import type { CalendarDate } from '../format.js';
import { addDays, addMonths, isLastDayOfMonth, lastDayOfMonthAfter } from './notice-calendar.js';
import type { NoticeRule } from './notice-terms.js';

function isQuarterEnd(date: CalendarDate): boolean {
  return date.month % 3 === 0 && isLastDayOfMonth(date);
}

/**
 * The date the notice takes effect for a contract ending on `end`: `end` itself when the rule has no end
 * point or `end` is such an end point; otherwise the last end point before `end` — the earlier deadline, so
 * that a reminder never comes too late.
 */
export function noticeEffectiveDate(rule: NoticeRule, end: CalendarDate): CalendarDate {
  switch (rule.endPoint) {
    case undefined:
      return end;
    case 'month':
      return isLastDayOfMonth(end) ? end : lastDayOfMonthAfter(end, -1);
    case 'quarter':
      if (isQuarterEnd(end)) return end;
      return lastDayOfMonthAfter(end, -(((end.month - 1) % 3) + 1));
    case 'year':
      return end.month === 12 && end.day === 31 ? end : { year: end.year - 1, month: 12, day: 31 };
    case 'mid-or-end-of-month':
      if (end.day === 15 || isLastDayOfMonth(end)) return end;
      return end.day > 15 ? { ...end, day: 15 } : lastDayOfMonthAfter(end, -1);
  }
}

/**
 * The last day on which notice can be received so that the period ends on or before the effective date,
 * counted by §§ 187 Abs. 1, 188 Abs. 2 und 3 BGB: the day of receipt is not counted, a period of days or
 * weeks ends n days or n × 7 days after it, a period of months on the day of the n-th month with the same
 * number, or on that month's last day where it has no such day. No shift for weekends or holidays: § 193
 * BGB does not apply to the receipt of a notice.
 */
export function lastNoticeDay(rule: NoticeRule, end: CalendarDate): CalendarDate {
  const effective = noticeEffectiveDate(rule, end);
  switch (rule.unit) {
    case 'days':
      return addDays(effective, -rule.amount);
    case 'weeks':
      return addDays(effective, -7 * rule.amount);
    case 'months':
      // Ending on a month's last day, the period may start from any day of the month n months earlier,
      // its last day included (§ 188 Abs. 3: 31.01. + 1 Monat ends 28.02.); otherwise from the same day
      // number, or that month's last day where it is shorter.
      return isLastDayOfMonth(effective)
        ? lastDayOfMonthAfter(effective, -rule.amount)
        : addMonths(effective, -rule.amount);
  }
}
