import { describe, expect, it } from 'vitest';
import { nextReminderAt } from './reminder-schedule.js';

const DAY = 24 * 3600_000;
const issued = new Date('2026-11-02T09:00:00Z');
const day = (n: number) => new Date(issued.getTime() + n * DAY);

/** Every reminder a signer who never answers gets, each sent exactly when due. */
function allReminders(validDays: number, everyDays: number): number[] {
  const expires = day(validDays);
  const sent: number[] = [];
  for (
    let due = nextReminderAt(issued, expires, everyDays);
    due;
    due = nextReminderAt(due, expires, everyDays)
  ) {
    sent.push((due.getTime() - issued.getTime()) / DAY);
    if (sent.length > 100) throw new Error('the schedule does not end');
  }
  return sent;
}

describe('reminder schedule', () => {
  it('reminds every few days and a last time a day before the link expires', () => {
    expect(allReminders(14, 3)).toEqual([3, 6, 9, 12, 13]);
    expect(allReminders(14, 7)).toEqual([7, 13]);
    expect(allReminders(10, 3)).toEqual([3, 6, 9]);
  });

  it('sends only the last call when the interval is longer than the link is valid', () => {
    expect(allReminders(5, 7)).toEqual([4]);
  });

  it('sends nothing when reminders are switched off or the link lasts a day', () => {
    expect(allReminders(14, 0)).toEqual([]);
    expect(allReminders(1, 3)).toEqual([]);
  });

  it('after a late reminder (the server was down) counts from when it went out', () => {
    expect(nextReminderAt(day(5), day(14), 3)).toEqual(day(8));
    expect(nextReminderAt(day(13.5), day(14), 3)).toBeNull();
  });
});
