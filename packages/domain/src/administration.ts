import { z } from 'zod';
import { permissionLevelSchema } from './api.js';

/**
 * Team-Operations: access requests, the staff list, the audit log and the match import
 * of `/verwaltung`. Levels travel as numbers (1 consultant, 2 legal, 3 leader, null none) as everywhere.
 */

const email = z.string().trim().toLowerCase().max(320).email('Bitte eine gültige E-Mail-Adresse eingeben.');
const timestamp = z.string().describe('ISO 8601');

/** POST /backend/access-requests: the optional note of a user without a level. */
export const accessRequestBodySchema = z.object({
  message: z.string().trim().max(2000, 'Die Nachricht darf höchstens 2000 Zeichen lang sein.').optional(),
});
export type AccessRequestBody = z.infer<typeof accessRequestBodySchema>;

/** The signed-in user's own request: the latest, open or decided; `null` when they never asked. */
export const ownAccessRequestSchema = z.object({
  request: z
    .object({
      requestedAt: timestamp,
      status: z.enum(['open', 'granted', 'declined']),
      /** Why it was declined. */
      reason: z.string().nullable(),
    })
    .nullable(),
});
export type OwnAccessRequest = z.infer<typeof ownAccessRequestSchema>;

export const accessRequestSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  message: z.string().nullable(),
  requestedAt: timestamp,
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;

export const grantAccessBodySchema = z.object({ permission: permissionLevelSchema });
export const declineAccessBodySchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'Bitte einen Grund angeben.')
    .max(1000, 'Der Grund darf höchstens 1000 Zeichen lang sein.'),
});

/** One person of the staff list. `version` changes with every change of the entry (optimistic locking). */
export const staffEntrySchema = z.object({
  email: z.string(),
  name: z.string(),
  permission: permissionLevelSchema.nullable(),
  administrator: z.boolean(),
  /** Named in ADMIN_EMAILS: an administrator the app cannot change. */
  administratorByConfiguration: z.boolean(),
  lastSignInAt: timestamp.nullable(),
  version: z.string(),
});
export type StaffEntry = z.infer<typeof staffEntrySchema>;

/** PUT /backend/admin/staff/{email}: what changes, and the version the administrator saw. */
export const staffChangeSchema = z
  .object({
    permission: permissionLevelSchema.nullable().optional(),
    administrator: z.boolean().optional(),
    version: z.string().min(1),
  })
  .refine((c) => c.permission !== undefined || c.administrator !== undefined, {
    message: 'Es wurde nichts geändert.',
    path: ['permission'],
  });
export type StaffChange = z.infer<typeof staffChangeSchema>;

/** POST /backend/admin/staff: a colleague added before their first sign-in. */
export const newColleagueSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Bitte den Namen angeben.')
    .max(200, 'Der Name darf höchstens 200 Zeichen lang sein.')
    .refine((name) => !/[<>]/.test(name), 'Der Name darf keine spitzen Klammern enthalten.'),
  email,
  permission: permissionLevelSchema.nullable(),
});
export type NewColleague = z.infer<typeof newColleagueSchema>;

/**
 * Every action the audit log records, with the German words the log shows for it: a server that
 * records an action without a label here does not compile.
 */
export const AUDIT_ACTION_LABELS = {
  'permission.set': 'Stufe geändert',
  'administrator.grant': 'Verwaltungsrecht erteilt',
  'administrator.revoke': 'Verwaltungsrecht entzogen',
  'staff.add': 'Kolleg:in hinzugefügt',
  'staff.remove': 'Kolleg:in entfernt',
  'staff.rename': 'Name geändert',
  'access.grant': 'Zugang freigegeben',
  'access.decline': 'Zugang abgelehnt',
  'matches.import': 'Matches importiert',
  'template.publish': 'Vorlage veröffentlicht',
  'template.marks': 'Absätze mit Freigabe bei Änderung markiert',
  'template.rollback': 'Vorlage zurückgerollt',
  'clause.create': 'Klausel angelegt',
  'clause.settings': 'Klausel umbenannt oder Freigabe geändert',
  'clause.version': 'Klauselversion gespeichert',
  'clause.publish': 'Klausel veröffentlicht',
  'clause.rollback': 'Klausel zurückgerollt',
  'clause.delete': 'Klausel gelöscht',
  'countersignature.set': 'Gegenzeichnung geändert',
  'countersignature.order': 'Reihenfolge der Gegenzeichnung geändert',
  'api-client.create': 'API-Zugang angelegt',
  'api-client.revoke': 'API-Zugang widerrufen',
  'api.call': 'API-Aufruf',
  'approval-rules.set': 'Freigaberegeln geändert',
  'approval.send-again': 'Freigabe erneut an DocuSign gesendet',
  'webhook.register': 'Webhook angelegt',
  'webhook.delete': 'Webhook gelöscht',
  'webhook.resend': 'Webhook erneut gesendet',
  'crm.writeback.resend': 'CRM-Rückmeldung erneut gesendet',
  'retention.rule.set': 'Aufbewahrungsregel geändert',
  'retention.delete': 'Nach Aufbewahrungsregel gelöscht',
  'legal_hold.place': 'Aufbewahrungssperre gesetzt',
  'legal_hold.lift': 'Aufbewahrungssperre aufgehoben',
  'person.search': 'Personendaten gesucht',
  'person.export': 'Personendaten exportiert',
  'person.erase': 'Personendaten gelöscht',
  'person.erase.delete': 'Nach Löschantrag gelöscht',
  'webhook.activate': 'Webhook aktiviert',
  'webhook.pause': 'Webhook pausiert',
  'contract.notice-rule': 'Kündigungsfrist eines Vertrags gesetzt',
  'contract.signed-elsewhere': 'Vertrag als anderweitig unterschrieben erfasst',
  'contract.reminder-settings': 'Vertragserinnerungen geändert',
  'batch.start': 'Serie gestartet',
  'batch.retry': 'Fehlgeschlagene Deals einer Serie erneut versucht',
  'batch.cancel': 'Serie abgebrochen',
  'batch.finished': 'Serie fertig',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: timestamp,
  actor: z.string(),
  action: z.string(),
  subject: z.string(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = z.object({
  entries: auditEntrySchema.array(),
  /** Pass as `before` for the next (older) page; absent on the last page. */
  next: z.string().optional(),
});

/** The largest match file the import takes: more than any CRM export of ours (10,000 matches are about 6 MB as JSON). */
export const MATCH_FILE_MAX_BYTES = 20 * 1024 * 1024;

/** A dry run or an import of a match file through /verwaltung. */
export const matchImportSummarySchema = z.object({
  /** Valid rows whose match ID is not yet in the store. */
  new: z.number().int(),
  /** Valid rows for known match IDs whose fields differ. */
  changed: z.number().int(),
  /** Valid rows identical to what is stored. */
  unchanged: z.number().int(),
  /**
   * Where each refused row is, counted from 1: a CSV row (and a problem of the whole file) by the line
   * it starts on, an entry of a JSON file by its number in the array (a JSON file may be one line).
   */
  refused: z
    .object({
      line: z.number().int().optional(),
      entry: z.number().int().optional(),
      matchId: z.string().optional(),
      reason: z.string(),
    })
    .array(),
  /** Matches written: 0 for a dry run and for a file with refused rows. */
  imported: z.number().int(),
});
export type MatchImportSummary = z.infer<typeof matchImportSummarySchema>;
