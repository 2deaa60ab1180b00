export const DAY_MS = 24 * 3600_000;

/**
 * When signers are reminded: SIGNING_REMINDER_DAYS after their link went out, then every
 * that many days, and a last time a day before the link expires. With links valid 14 days and
 * reminders every 3: on days 3, 6, 9, 12 and 13.
 *
 * The reminder after `from` — the moment the link went out or the last reminder did; null when no
 * further one is due (switched off, or `from` was the last call already).
 */
export function nextReminderAt(from: Date, expiresAt: Date, everyDays: number): Date | null {
  if (everyDays <= 0) return null;
  const lastCall = expiresAt.getTime() - DAY_MS;
  if (from.getTime() >= lastCall) return null;
  return new Date(Math.min(from.getTime() + everyDays * DAY_MS, lastCall));
}

/** Whether a reminder sent `at` is the last call: the link expires within a day. */
export function isLastCall(at: Date, expiresAt: Date): boolean {
  return expiresAt.getTime() - at.getTime() <= DAY_MS;
}
