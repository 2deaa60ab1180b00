import { z } from 'zod';

/**
 * The retention rules: what a deletion run removes, and after how long. The audit log has a rule too,
 * fixed to never: it records the deletions themselves.
 */
export const RETENTION_RULES = [
  'failed_generations',
  'envelope_drafts',
  'ended_envelopes',
  'generated_documents',
  'completed_contracts',
  'support_reports',
  'mails',
  'webhook_deliveries',
  'crm_writebacks',
  'audit_log',
] as const;
export type RetentionRuleName = (typeof RETENTION_RULES)[number];

export const PERIOD_UNITS = ['days', 'months', 'years'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

export interface RetentionPeriod {
  value: number;
  unit: PeriodUnit;
}

/** The defaults: statutory periods for business letters (HGB §257, AO §147: 6 years) and contracts (10 years). */
export const RETENTION_DEFAULTS: Record<RetentionRuleName, RetentionPeriod | null> = {
  failed_generations: { value: 30, unit: 'days' },
  envelope_drafts: { value: 90, unit: 'days' },
  ended_envelopes: { value: 6, unit: 'months' },
  generated_documents: { value: 6, unit: 'years' },
  completed_contracts: { value: 10, unit: 'years' },
  support_reports: { value: 1, unit: 'years' },
  mails: { value: 30, unit: 'days' },
  // Their payloads name signers; 90 days leave a quarter to look into a delivery that went wrong.
  webhook_deliveries: { value: 90, unit: 'days' },
  crm_writebacks: { value: 90, unit: 'days' },
  audit_log: null,
};

export const RETENTION_RULE_LABELS: Record<RetentionRuleName, string> = {
  failed_generations: 'Fehlgeschlagene Erstellungen',
  envelope_drafts: 'Nie versendete Umschlag-Entwürfe',
  ended_envelopes: 'Abgelehnte, verworfene oder fehlgeschlagene Umschläge',
  generated_documents: 'Erstellte Dokumente (Geschäftsbriefe)',
  completed_contracts: 'Abgeschlossene Verträge und ihre gesiegelten PDFs',
  support_reports: 'Problemmeldungen',
  mails: 'Mails (Ausgang und Mail-Ordner)',
  webhook_deliveries: 'Webhook-Zustellungen (mit ihren Versuchen)',
  crm_writebacks: 'CRM-Rückmeldungen',
  audit_log: 'Audit-Log',
};

/**
 * What a deletion run deletes besides the rules, under these keys of its counts: expired exports of a
 * person's data (their download has ended), and what an earlier erase listed as kept that now goes.
 */
export const DELETION_RUN_EXTRA_LABELS: Record<string, string> = {
  person_exports: 'Abgelaufene Auskünfte (Exporte)',
  erase_request: 'Löschungen auf Antrag, jetzt fällig',
};

/** How a deletion run's count is named: by its rule, or by what else a run deletes. */
export function deletionRunLabel(key: string): string {
  return RETENTION_RULE_LABELS[key as RetentionRuleName] ?? DELETION_RUN_EXTRA_LABELS[key] ?? key;
}

/** From when each rule counts. */
export const RETENTION_RULE_START: Record<RetentionRuleName, string> = {
  failed_generations: 'ab der Erstellung',
  envelope_drafts: 'ab der Erstellung',
  ended_envelopes: 'ab dem Ende des Umschlags',
  generated_documents: 'ab der Erstellung',
  completed_contracts: 'ab dem Abschluss',
  support_reports: 'ab der Meldung',
  mails: 'ab dem Versand',
  webhook_deliveries: 'ab der Zustellung oder dem Aufgeben',
  crm_writebacks: 'ab der Ablage im CRM oder dem Aufgeben',
  audit_log: 'wird nie durch eine Regel gelöscht',
};

export const PERIOD_UNIT_LABELS: Record<PeriodUnit, [singular: string, plural: string]> = {
  days: ['Tag', 'Tage'],
  months: ['Monat', 'Monate'],
  years: ['Jahr', 'Jahre'],
};

/** Longer than any statutory period, so a typo (3650 years) is refused rather than keeping forever. */
export const MAX_PERIOD: Record<PeriodUnit, number> = { days: 10_950, months: 360, years: 30 };

export function formatPeriod(period: RetentionPeriod | null): string {
  if (!period) return 'nie';
  const [one, many] = PERIOD_UNIT_LABELS[period.unit];
  return `${period.value} ${period.value === 1 ? one : many}`;
}

/** The moment something that began at `from` is due under `period` (calendar months and years). */
export function dueAt(from: Date, period: RetentionPeriod): Date {
  const due = new Date(from.getTime());
  if (period.unit === 'days') due.setUTCDate(due.getUTCDate() + period.value);
  if (period.unit === 'months') due.setUTCMonth(due.getUTCMonth() + period.value);
  if (period.unit === 'years') due.setUTCFullYear(due.getUTCFullYear() + period.value);
  return due;
}

/** The moment before which whatever began is due now under `period`: the inverse of `dueAt`. */
export function dueBefore(now: Date, period: RetentionPeriod): Date {
  const cutoff = new Date(now.getTime());
  if (period.unit === 'days') cutoff.setUTCDate(cutoff.getUTCDate() - period.value);
  if (period.unit === 'months') cutoff.setUTCMonth(cutoff.getUTCMonth() - period.value);
  if (period.unit === 'years') cutoff.setUTCFullYear(cutoff.getUTCFullYear() - period.value);
  return cutoff;
}

export const retentionPeriodSchema = z
  .object({
    value: z
      .number({ error: 'Bitte gib die Aufbewahrungsdauer als ganze Zahl an.' })
      .int({ error: 'Bitte gib die Aufbewahrungsdauer als ganze Zahl an.' })
      .min(1, { error: 'Die Aufbewahrungsdauer muss mindestens 1 sein.' }),
    unit: z.enum(PERIOD_UNITS, { error: 'Bitte wähle Tage, Monate oder Jahre.' }),
  })
  .refine((period) => period.value <= MAX_PERIOD[period.unit], {
    error: 'Diese Aufbewahrungsdauer ist unplausibel lang (höchstens 30 Jahre).',
    path: ['value'],
  });

/** GET /backend/admin/retention: every rule with its period. */
export const retentionRuleSchema = z.object({
  rule: z.enum(RETENTION_RULES),
  label: z.string(),
  start: z.string(),
  /** Null: never deleted by a rule. */
  period: z.object({ value: z.number().int(), unit: z.enum(PERIOD_UNITS) }).nullable(),
  /** The audit log's rule cannot be changed. */
  editable: z.boolean(),
  changedBy: z.string().nullable(),
  changedAt: z.string().nullable(),
});
export type RetentionRule = z.infer<typeof retentionRuleSchema>;

/** PUT /backend/admin/retention/:rule. */
export const retentionRuleChangeSchema = z.object({ period: retentionPeriodSchema });

export const legalHoldSchema = z.object({
  id: z.string(),
  matchId: z.string(),
  reason: z.string(),
  placedBy: z.string(),
  placedAt: z.string(),
  liftedBy: z.string().nullable(),
  liftedAt: z.string().nullable(),
});
export type LegalHold = z.infer<typeof legalHoldSchema>;

/** POST /backend/admin/legal-holds. */
export const legalHoldRequestSchema = z.object({
  matchId: z
    .string({ error: 'Bitte gib eine Match-ID an.' })
    .trim()
    .min(1, { error: 'Bitte gib eine Match-ID an.' })
    .max(100, { error: 'Diese Match-ID ist zu lang.' }),
  reason: z
    .string({ error: 'Bitte gib einen Grund an.' })
    .trim()
    .min(3, { error: 'Bitte gib einen Grund an (mindestens 3 Zeichen).' })
    .max(1000, { error: 'Der Grund ist zu lang (höchstens 1000 Zeichen).' }),
});

export const retentionRunSchema = z.object({
  id: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Per rule, how many items it deleted. */
  deleted: z.record(z.string(), z.number().int()),
  error: z.string().nullable(),
});
export type RetentionRun = z.infer<typeof retentionRunSchema>;

export const retentionOverviewSchema = z.object({
  rules: z.array(retentionRuleSchema),
  holds: z.array(legalHoldSchema),
  runs: z.array(retentionRunSchema),
});
export type RetentionOverview = z.infer<typeof retentionOverviewSchema>;

/** What a match's history still says about a deleted document or envelope file. */
export const deletionRecordSchema = z.object({
  kind: z.string(),
  subjectId: z.string(),
  docKey: z.string().nullable(),
  sha256: z.string().nullable(),
  rule: z.string(),
  ruleLabel: z.string(),
  at: z.string(),
});
export type DeletionRecord = z.infer<typeof deletionRecordSchema>;

export const DOCUMENT_READ_KINDS = [
  'document',
  'version',
  'envelope_document',
  'certificate',
  'sealed_pdf',
  'seal_check',
] as const;
export type DocumentReadKind = (typeof DOCUMENT_READ_KINDS)[number];

export const DOCUMENT_READ_LABELS: Record<DocumentReadKind, string> = {
  document: 'Dokument geöffnet',
  version: 'Version heruntergeladen',
  envelope_document: 'Dokument des Umschlags geöffnet',
  certificate: 'Zertifikat heruntergeladen',
  sealed_pdf: 'Gesiegeltes PDF heruntergeladen',
  seal_check: 'Gesiegeltes PDF geprüft',
};

/** GET /backend/documents/:id/reads: who opened, downloaded or checked the document's files. */
export const documentReadSchema = z.object({
  at: z.string(),
  actor: z.string(),
  kind: z.enum(DOCUMENT_READ_KINDS),
  version: z.number().int().nullable(),
  envelopeId: z.string().nullable(),
});
export type DocumentRead = z.infer<typeof documentReadSchema>;

/** Where a person was found: the tables the search looks through. */
export const PERSON_SOURCES = [
  'match',
  'document',
  'recipient',
  'envelope',
  'envelope_event',
  'mail',
  'mail_file',
  'staff',
  'access_request',
  'support_report',
  'approval_request',
  'approval_decision',
  'webhook_event',
  'contract_record',
  'contract_event',
  'calendar_feed',
  'reminder_setting',
  'audit',
] as const;
export type PersonSource = (typeof PERSON_SOURCES)[number];

export const PERSON_SOURCE_LABELS: Record<PersonSource, string> = {
  match: 'Match',
  document: 'Daten eines Dokuments',
  recipient: 'Empfänger eines Umschlags',
  envelope: 'Absender eines Umschlags',
  envelope_event: 'Ereignis eines Umschlags',
  mail: 'Mail im Ausgang',
  mail_file: 'Mail im Mail-Ordner',
  staff: 'Mitarbeiterliste',
  access_request: 'Zugangsanfrage',
  support_report: 'Problemmeldung',
  approval_request: 'Freigabe-Anfrage',
  approval_decision: 'Freigabe-Entscheidung',
  webhook_event: 'Webhook-Ereignis',
  contract_record: 'Laufender Vertrag',
  contract_event: 'Ereignis eines Vertrags',
  calendar_feed: 'Kalender-Abo der Vertragsfristen',
  reminder_setting: 'Einstellung der Vertragserinnerungen',
  audit: 'Audit-Log',
};

export const personQuerySchema = z.object({
  query: z
    .string({ error: 'Bitte gib eine E-Mail-Adresse oder einen Namen an.' })
    .trim()
    .min(3, { error: 'Bitte gib mindestens 3 Zeichen einer E-Mail-Adresse oder eines Namens an.' })
    .max(200, { error: 'Die Suche ist zu lang (höchstens 200 Zeichen).' }),
});

export const personHitSchema = z.object({
  source: z.enum(PERSON_SOURCES),
  id: z.string(),
  matchId: z.string().nullable(),
  /** German: where exactly, e.g. „Umschlag … · Rolle Projektpartner“. */
  where: z.string(),
  /** The value that matched. */
  value: z.string(),
});
export type PersonHit = z.infer<typeof personHitSchema>;

export const personSearchSchema = z.object({
  query: z.string(),
  hits: z.array(personHitSchema),
  /** Where the search stopped at its limit per source: more hits there than it shows. */
  truncated: z.array(z.enum(PERSON_SOURCES)),
});
export type PersonSearch = z.infer<typeof personSearchSchema>;

export const personExportSchema = z.object({
  id: z.string(),
  expiresAt: z.string(),
  records: z.number().int(),
  files: z.number().int(),
});
export type PersonExport = z.infer<typeof personExportSchema>;

/** A full name: at least two words, as one alone (a first name) would erase whoever else bears it. */
export const FULL_NAME = /^\S+(\s+\S+)+$/;

/** POST …/erase: the person by e-mail address, or by full name where no address is known. */
export const personEraseRequestSchema = z
  .object({
    email: z
      .string({ error: 'Bitte gib die E-Mail-Adresse der Person an.' })
      .trim()
      .toLowerCase()
      .email({ error: 'Das ist keine gültige E-Mail-Adresse.' })
      .optional(),
    name: z
      .string({ error: 'Bitte gib den vollen Namen der Person an.' })
      .trim()
      .max(200, { error: 'Der Name ist zu lang (höchstens 200 Zeichen).' })
      .regex(FULL_NAME, { error: 'Bitte gib den vollen Namen der Person an (Vor- und Nachname).' })
      .optional(),
    confirm: z.literal(true, { error: 'Bitte bestätige die Löschung.' }),
  })
  .refine((body) => (body.email === undefined) !== (body.name === undefined), {
    error: 'Löschen geht über die E-Mail-Adresse oder den vollen Namen der Person (eines von beiden).',
    path: ['email'],
  });

export const retainedItemSchema = z.object({
  what: z.string(),
  id: z.string(),
  matchId: z.string().nullable(),
  rule: z.string(),
  /** When the rule deletes it; null: never by a rule (the audit log), or elsewhere (the CRM). */
  until: z.string().nullable(),
});
export type RetainedItem = z.infer<typeof retainedItemSchema>;

export const personEraseSchema = z.object({
  erased: z.array(z.object({ what: z.string(), count: z.number().int() })),
  retained: z.array(retainedItemSchema),
});
export type PersonErase = z.infer<typeof personEraseSchema>;

/** 409 of an erase: the envelopes that must be voided first. */
export const runningEnvelopeSchema = z.object({ id: z.string(), matchId: z.string(), subject: z.string() });
