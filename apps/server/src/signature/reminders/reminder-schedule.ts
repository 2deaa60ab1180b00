const DAY_MS = 24 * 3600_000;

/**
 * When signers are reminded (DESIGN §6): SIGNING_REMINDER_DAYS after their link went out, then every
 * that many days, and a last time a day before the link expires. With links valid 14 days and
 * reminders every 3: on days 3, 6, 9, 12 and 13. Null: no (further) reminder.
 */
export function firstReminderAt(issuedAt: Date, expiresAt: Date, everyDays: number): Date | null {
  return nextReminderAt(issuedAt, expiresAt, everyDays);
}

/** The reminder after one sent at `sentAt`; null when that one was the last before expiry. */
export function nextReminderAt(sentAt: Date, expiresAt: Date, everyDays: number): Date | null {
  if (everyDays <= 0) return null;
  const lastCall = expiresAt.getTime() - DAY_MS;
  if (sentAt.getTime() >= lastCall) return null;
  return new Date(Math.min(sentAt.getTime() + everyDays * DAY_MS, lastCall));
}
