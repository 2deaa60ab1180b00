/**
 * Owns Freigabe's rules: who approves (groups in turn, deputies, the escalation's working days) and
 * what needs approval (margin thresholds per company, edited text, document types), as stored and as
 * `/backend/approval-rules` shows and takes them.
 */
import { z } from 'zod';
import { CATALOGUE, COMPANIES, type Company, type DocumentFamily } from './documents/catalogue.js';
import { EMAIL_PATTERN } from './documents/data-lists.js';
import { FAMILY_TITLES } from './template-library.js';

/** Who may approve: permission level 3 (leaders) or level 2 (legal staff). */
export const APPROVER_GROUPS = ['leaders', 'legal'] as const;
export type ApproverGroup = (typeof APPROVER_GROUPS)[number];

export const APPROVER_GROUP_LABELS: Record<ApproverGroup, string> = {
  leaders: 'Leitung',
  legal: 'Legal',
};

/** The permission level of each approver group (packages/domain/src/permissions.ts). */
export const APPROVER_GROUP_LEVELS = { leaders: 3, legal: 2 } as const satisfies Record<ApproverGroup, 2 | 3>;

/** The companies a margin threshold is kept for: those of the document catalogue. */
export const APPROVAL_COMPANIES = COMPANIES;

export const APPROVAL_COMPANY_LABELS: Record<Company, string> = { wm: 'WM', we: 'WE', wp: 'WP' };

/** The document families a rule may name, besides single catalogue keys. */
export const APPROVAL_FAMILIES = [
  'contract',
  'termination',
  'offer',
  'agreement',
] as const satisfies readonly DocumentFamily[];

const PERCENT_MESSAGE = 'Der Schwellenwert muss ein Prozentsatz zwischen 0 und 100 sein.';

/** A percentage 0–100, e.g. `15` for 15 %. */
export const percentageSchema = z
  .number({ error: PERCENT_MESSAGE })
  .min(0, PERCENT_MESSAGE)
  .max(100, PERCENT_MESSAGE)
  .refine(Number.isFinite, PERCENT_MESSAGE);

const deputyEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(320, 'Die E-Mail-Adresse ist zu lang.')
  .regex(EMAIL_PATTERN, 'Keine gültige E-Mail-Adresse für eine Vertretung.');

/** A document type a rule names: a family (`termination`) or a catalogue key (`kuendigung-wm-k-confirmation`). */
export const approvalDocumentTypeSchema = z
  .string()
  .trim()
  .refine((value) => (APPROVAL_FAMILIES as readonly string[]).includes(value) || CATALOGUE.has(value), {
    message: 'Unbekannter Dokumenttyp.',
  });

/**
 * The rules as stored and as `PUT /backend/approval-rules` takes them. On a new database:
 * `DEFAULT_APPROVAL_RULES`.
 */
export const approvalRulesSchema = z
  .object({
    /** The deal's margin (VK − EK) ÷ VK, remote and onsite, below the company's threshold (percent). */
    margin: z.object({
      enabled: z.boolean(),
      thresholds: z.object({ wm: percentageSchema, we: percentageSchema, wp: percentageSchema }),
    }),
    /** The DOCX text differs from what was generated for the document (an editor version). */
    editedText: z.boolean(),
    /**
     * A paragraph its template marks („Änderung braucht Freigabe“: Haftung, Kundenschutz, …) differs from
     * what was generated. Rules stored before it existed get it switched on.
     */
    markedParagraphs: z.boolean().default(true),
    /** Families or catalogue keys that always need approval. */
    documentTypes: z.array(approvalDocumentTypeSchema).max(200),
    approvers: z.object({
      /**
       * The groups in turn: the first decides at once; the next may decide too once
       * `escalationWorkingDays` working days (Monday to Friday) passed without a decision.
       */
      order: z
        .array(z.enum(APPROVER_GROUPS), { error: 'Bitte wähle, wer freigibt.' })
        .min(1, 'Bitte wähle mindestens eine Gruppe, die freigibt.')
        .max(2)
        .refine((order) => new Set(order).size === order.length, {
          message: 'Jede Gruppe darf nur einmal vorkommen.',
        }),
      escalationWorkingDays: z
        .number({ error: 'Bitte gib die Arbeitstage bis zur Eskalation als ganze Zahl an.' })
        .int('Bitte gib die Arbeitstage bis zur Eskalation als ganze Zahl an.')
        .min(1, 'Die Eskalation braucht mindestens einen Arbeitstag.')
        .max(30, 'Die Eskalation darf höchstens 30 Arbeitstage dauern.'),
    }),
    /** Staff an administrator names who may approve besides the groups (never their own requests). */
    deputies: z.array(deputyEmail).max(50, 'Höchstens 50 Vertretungen.'),
  })
  .superRefine((rules, ctx) => {
    const seen = new Set<string>();
    rules.deputies.forEach((email, index) => {
      if (seen.has(email))
        ctx.addIssue({ code: 'custom', path: ['deputies', index], message: 'Diese Vertretung ist doppelt.' });
      seen.add(email);
    });
  });
export type ApprovalRules = z.infer<typeof approvalRulesSchema>;

export const DEFAULT_APPROVAL_RULES: ApprovalRules = {
  margin: { enabled: true, thresholds: { wm: 15, we: 15, wp: 15 } },
  editedText: true,
  markedParagraphs: true,
  documentTypes: [],
  approvers: { order: ['leaders', 'legal'], escalationWorkingDays: 2 },
  deputies: [],
};

/** GET /backend/approval-rules and the answer of PUT. */
export const approvalRulesViewSchema = z.object({
  rules: approvalRulesSchema,
  /** Changes with every change of the rules (optimistic locking). */
  version: z.string(),
  /** Who changed them last and when; null while the defaults hold. */
  changedBy: z.string().nullable(),
  changedAt: z.string().nullable(),
  /** The caller may change them (administrator or legal staff). */
  mayChange: z.boolean(),
  /** The caller may name deputies (administrators only): legal staff change the rest, not the deputies. */
  mayNameDeputies: z.boolean(),
  /** The document types a rule may name, for the picker: families first, then keys. */
  documentTypeOptions: z.array(z.object({ value: z.string(), label: z.string() })),
});
export type ApprovalRulesView = z.infer<typeof approvalRulesViewSchema>;

/** PUT /backend/approval-rules: the new rules, and the version the editor saw (409 when stale). */
export const approvalRulesChangeSchema = z.object({
  rules: approvalRulesSchema,
  version: z.string().optional(),
});
export type ApprovalRulesChange = z.infer<typeof approvalRulesChangeSchema>;

/** German label of a document type a rule names. */
export function approvalDocumentTypeLabel(value: string): string {
  if ((APPROVAL_FAMILIES as readonly string[]).includes(value)) return FAMILY_TITLES[value as DocumentFamily];
  return value;
}

export function approvalDocumentTypeOptions(): { value: string; label: string }[] {
  return [
    ...APPROVAL_FAMILIES.map((family) => ({ value: family, label: FAMILY_TITLES[family] })),
    ...[...CATALOGUE.keys()].map((key) => ({ value: key, label: key })),
  ];
}

// ---------------------------------------------------------------------------------------------------
// Working days (the escalation's)
// ---------------------------------------------------------------------------------------------------

/** `from` plus `days` working days (Monday to Friday, counted in UTC); a weekend start counts from Monday. */
export function addWorkingDays(from: Date, days: number): Date {
  const result = new Date(from.getTime());
  let left = days;
  while (left > 0) {
    result.setUTCDate(result.getUTCDate() + 1);
    const weekday = result.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return result;
}
