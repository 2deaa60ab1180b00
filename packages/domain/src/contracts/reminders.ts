import { z } from 'zod';
import { COMPANIES, type Company } from '../documents/catalogue.js';

/**
 * Reminders of running contracts: how many days before a contract's last day to give notice and before
 * its end the deal's consultant and legal staff are mailed, per company (/verwaltung), and the personal
 * calendar feed of the deadlines a user may see on /vertraege.
 */

/** Until an administrator changes them: 60 days before the notice deadline, 14 before the end. */
export const CONTRACT_REMINDER_DEFAULTS = { noticeDays: 60, endDays: 14 } as const;

/** The longest lead time an administrator may set, in days. */
export const CONTRACT_REMINDER_MAX_DAYS = 365;

export const CONTRACT_REMINDER_COMPANY_LABELS: Record<Company, string> = { wm: 'WM', we: 'WE', wp: 'WP' };

const leadDays = (what: string) =>
  z
    .number({ error: `Bitte gib die Tage vor ${what} als Zahl an.` })
    .int(`Bitte gib die Tage vor ${what} als ganze Zahl an.`)
    .min(1, `Die Erinnerung vor ${what} braucht mindestens einen Tag Vorlauf.`)
    .max(CONTRACT_REMINDER_MAX_DAYS, `Höchstens ${CONTRACT_REMINDER_MAX_DAYS} Tage vor ${what}.`);

const noticeDays = leadDays('der Kündigungsfrist');
const endDays = leadDays('dem Vertragsende');

/** GET /backend/contract-reminder-settings: one entry per company. */
export const contractReminderSettingSchema = z.object({
  company: z.enum(COMPANIES),
  /** German, e.g. `WM`. */
  label: z.string(),
  /** Days before the last day to give notice that the reminder goes out. */
  noticeDays: z.number().int(),
  /** Days before the contract's end that the reminder goes out. */
  endDays: z.number().int(),
  /** Who changed it last and when; null while the defaults hold. */
  changedBy: z.string().nullable(),
  changedAt: z.string().nullable(),
});
export type ContractReminderSetting = z.infer<typeof contractReminderSettingSchema>;

/** PUT /backend/contract-reminder-settings: the lead times of one or more companies. */
export const contractReminderSettingsChangeSchema = z.object({
  settings: z
    .array(
      z.object({
        company: z.enum(COMPANIES, { error: 'Diese Gesellschaft gibt es nicht.' }),
        noticeDays,
        endDays,
      }),
      { error: 'Bitte gib die Einstellungen als Liste an.' },
    )
    .min(1, 'Bitte gib mindestens eine Gesellschaft an.')
    .max(COMPANIES.length, 'Jede Gesellschaft höchstens einmal.')
    .refine((settings) => new Set(settings.map((s) => s.company)).size === settings.length, {
      message: 'Jede Gesellschaft höchstens einmal.',
    }),
});
export type ContractReminderSettingsChange = z.infer<typeof contractReminderSettingsChangeSchema>;

/** GET /backend/contracts/calendar-feed: whether the user has a subscribe link, and since when. */
export const calendarFeedStateSchema = z.object({
  exists: z.boolean(),
  /** ISO 8601; null without a link. */
  createdAt: z.string().nullable(),
});
export type CalendarFeedState = z.infer<typeof calendarFeedStateSchema>;

/** POST /backend/contracts/calendar-feed: the new subscribe link, answered this once only. */
export const calendarFeedCreatedSchema = z.object({
  url: z.string(),
  createdAt: z.string(),
});
export type CalendarFeedCreated = z.infer<typeof calendarFeedCreatedSchema>;
