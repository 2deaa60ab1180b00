import { z } from 'zod';
import { CATALOGUE, COMPANIES, type Company, type DocumentFamily } from './documents/catalogue.js';
import { EMAIL_PATTERN } from './documents/data-lists.js';
import { formatGermanNumber, parseGermanNumber } from './format.js';
import { type FieldValue, isMissing, MATCH_FALLBACKS, type MatchNumericField } from './match.js';
import { FAMILY_TITLES, paragraphChangeSchema } from './template-library.js';

/**
 * Freigabe (approvals): a contract that needs a second pair of eyes waits for it — by the deal's
 * margin, by an edited text, by document type. The rules live in the database
 * (`/backend/approval-rules`), the requests under `/backend/approvals`; an envelope that needs an
 * approval and has none is refused by the server (409 with the reasons).
 */

// ---------------------------------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------------------------------

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
// The deal's margin
// ---------------------------------------------------------------------------------------------------

export const MARGIN_CHANNELS = ['remote', 'onsite'] as const;
export type MarginChannel = (typeof MARGIN_CHANNELS)[number];

/** Which match fields give a channel's selling (VK) and buying (EK) rate. */
export const MARGIN_FIELDS = {
  remote: { vk: 'vk', ek: 'ek' },
  onsite: { vk: 'vk2', ek: 'ek2' },
} as const satisfies Record<MarginChannel, { vk: MatchNumericField; ek: MatchNumericField }>;

/** A match record or a resolved match: the rates and, for a record, their fallback fields. */
export type MarginSource = Partial<Record<MatchNumericField, FieldValue>>;

export type Margin =
  /** `percent`: (VK − EK) ÷ VK × 100. */
  | { status: 'ok'; percent: number; vk: number; ek: number }
  /** VK or EK absent or not a number. */
  | { status: 'missing' }
  /** Neither VK nor EK given: the deal has no such part (a remote-only deal has no onsite rates). */
  | { status: 'none' }
  /** VK is 0 or negative: no margin can be computed. */
  | { status: 'invalid' };

function rate(
  match: MarginSource,
  field: keyof typeof MATCH_FALLBACKS & MatchNumericField,
): number | undefined {
  const primary = match[field];
  const value = isMissing(primary) ? match[MATCH_FALLBACKS[field]] : primary;
  return isMissing(value) ? undefined : parseGermanNumber(value);
}

/** The deal's margin of one channel, with the fallbacks of match.ts applied (vk ← tagessatzRemote, …). */
export function dealMargin(match: MarginSource, channel: MarginChannel): Margin {
  const fields = MARGIN_FIELDS[channel];
  const vk = rate(match, fields.vk);
  const ek = rate(match, fields.ek);
  if (vk === undefined && ek === undefined) return { status: 'none' };
  if (vk === undefined || ek === undefined) return { status: 'missing' };
  if (vk <= 0) return { status: 'invalid' };
  return { status: 'ok', percent: ((vk - ek) / vk) * 100, vk, ek };
}

// ---------------------------------------------------------------------------------------------------
// Reasons
// ---------------------------------------------------------------------------------------------------

/** Why a document needs approval, as data; `approvalReasonText` words it. */
export const approvalReasonSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('margin'),
    channel: z.enum(MARGIN_CHANNELS),
    company: z.enum(COMPANIES),
    /** The company's threshold in percent at the time of the check. */
    threshold: z.number(),
    /** The margin in percent; null when it could not be computed (see `problem`). */
    percent: z.number().nullable(),
    /** `missing`: VK or EK not given; `invalid`: VK is 0 or negative. */
    problem: z.enum(['missing', 'invalid']).nullable(),
  }),
  z.object({ kind: z.literal('edited_text') }),
  z.object({
    kind: z.literal('document_type'),
    /** The rule's entry that matched: a family or a catalogue key. */
    documentType: z.string(),
  }),
]);
export type ApprovalReason = z.infer<typeof approvalReasonSchema>;

/** A margin shown in a sentence: cut (not rounded) to two decimals, so that 14,999 % never reads as 15 %. */
function percentText(percent: number): string {
  return `${formatGermanNumber(Math.floor(percent * 100 + 1e-9) / 100)} %`;
}

/**
 * The reason in German, e.g. „Marge remote 12,4 % liegt unter 15 % (WM)“, „Marge onsite fehlt (VK oder
 * EK nicht angegeben)“, „Text nach der Erstellung geändert“, „Dokumenttyp Kündigung braucht immer eine
 * Freigabe“.
 */
export function approvalReasonText(reason: ApprovalReason): string {
  switch (reason.kind) {
    case 'margin':
      if (reason.problem === 'missing' || reason.percent === null)
        return `Marge ${reason.channel} fehlt (VK oder EK nicht angegeben)`;
      if (reason.problem === 'invalid') return `Marge ${reason.channel} nicht berechenbar (VK ist 0)`;
      return `Marge ${reason.channel} ${percentText(reason.percent)} liegt unter ${formatGermanNumber(
        reason.threshold,
      )} % (${APPROVAL_COMPANY_LABELS[reason.company]})`;
    case 'edited_text':
      return 'Text nach der Erstellung geändert';
    case 'document_type':
      return `Dokumenttyp ${approvalDocumentTypeLabel(reason.documentType)} braucht immer eine Freigabe`;
  }
}

/** What a document is checked by: its match's rates, its catalogue key, and whether its text was edited. */
export interface ApprovalSubject {
  match: MarginSource;
  docKey: string;
  editedText: boolean;
}

/** The reasons the rules give for a document; empty when it may be sent without approval. */
export function approvalReasons(rules: ApprovalRules, subject: ApprovalSubject): ApprovalReason[] {
  const reasons: ApprovalReason[] = [];
  const entry = CATALOGUE.get(subject.docKey);
  if (rules.margin.enabled && entry) {
    const company = entry.params.company;
    const threshold = rules.margin.thresholds[company];
    const margins = MARGIN_CHANNELS.map((channel) => ({
      channel,
      margin: dealMargin(subject.match, channel),
    }));
    // A channel without any rate is not part of the deal; a deal without any rate at all is a reason.
    const withoutRates = margins.every(({ margin }) => margin.status === 'none');
    for (const { channel, margin } of margins) {
      if (margin.status === 'none') {
        if (withoutRates && channel === 'remote')
          reasons.push({ kind: 'margin', channel, company, threshold, percent: null, problem: 'missing' });
      } else if (margin.status === 'ok') {
        if (margin.percent < threshold)
          reasons.push({
            kind: 'margin',
            channel,
            company,
            threshold,
            percent: margin.percent,
            problem: null,
          });
      } else {
        reasons.push({ kind: 'margin', channel, company, threshold, percent: null, problem: margin.status });
      }
    }
  }
  if (rules.editedText && subject.editedText) reasons.push({ kind: 'edited_text' });
  const family = entry?.params.family;
  const matched = rules.documentTypes.find((type) => type === subject.docKey || type === family);
  if (matched !== undefined) reasons.push({ kind: 'document_type', documentType: matched });
  return reasons;
}

// ---------------------------------------------------------------------------------------------------
// Working days
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

// ---------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------

export const APPROVAL_STATUSES = ['open', 'approved', 'declined', 'void'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const APPROVAL_STATUS_LABELS: Record<ApprovalStatus, string> = {
  open: 'Offen',
  approved: 'Freigegeben',
  declined: 'Abgelehnt',
  void: 'Hinfällig',
};

/** The send an approval triggers: pending until the background run sent the envelope. */
export const APPROVAL_SEND_STATES = ['pending', 'done', 'failed'] as const;
export type ApprovalSendState = (typeof APPROVAL_SEND_STATES)[number];

const person = z.object({ email: z.string(), name: z.string() });

export const approvalRequestSchema = z.object({
  id: z.string(),
  /** The envelope it was asked for; null for a document released for download. */
  envelopeId: z.string().nullable(),
  documentId: z.string(),
  /** The document version it belongs to; a later version voids it. */
  documentVersion: z.number().int(),
  matchId: z.string(),
  docKey: z.string(),
  fileName: z.string(),
  /** The match's customer, for the list. */
  customer: z.string(),
  requestedBy: person,
  requestedAt: z.string(),
  reasons: z.array(approvalReasonSchema),
  /** The reasons worded (`approvalReasonText`), in the order of `reasons`. */
  reasonTexts: z.array(z.string()),
  status: z.enum(APPROVAL_STATUSES),
  decidedBy: person.nullable(),
  decidedAt: z.string().nullable(),
  /** The approver's comment (optional) or the reason of a decline. */
  comment: z.string().nullable(),
  /** Why a request became void, e.g. „Dokument nach der Freigabe geändert“. */
  voidReason: z.string().nullable(),
  /** The rules as they were when it was asked; a later rule change does not apply to it. */
  rules: approvalRulesSchema,
  /** When the next group in turn may decide too; null with one group or once decided. */
  escalatesAt: z.string().nullable(),
  /** The groups that may decide it now (besides deputies). */
  currentGroups: z.array(z.enum(APPROVER_GROUPS)),
  /** The caller may approve or decline it now. */
  mayDecide: z.boolean(),
  /** For an approved envelope: the send in the requester's name. */
  send: z
    .object({ state: z.enum(APPROVAL_SEND_STATES), at: z.string().nullable(), error: z.string().nullable() })
    .nullable(),
});
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

export const APPROVAL_LIST_FILTERS = ['open', 'decided', 'all'] as const;
export type ApprovalListFilter = (typeof APPROVAL_LIST_FILTERS)[number];

export const APPROVAL_LIST_FILTER_LABELS: Record<ApprovalListFilter, string> = {
  open: 'Offen',
  decided: 'Entschieden',
  all: 'Alle',
};

export const APPROVALS_PAGE_SIZE = 25;

/** GET /backend/approvals: the query. */
export const approvalListQuerySchema = z.object({
  status: z.enum(APPROVAL_LIST_FILTERS).default('open'),
  q: z.string().trim().max(200, 'Der Suchbegriff ist zu lang (max. 200 Zeichen).').default(''),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type ApprovalListQuery = z.infer<typeof approvalListQuerySchema>;

/**
 * GET /backend/approvals: the requests the caller may decide or decided, and those they asked for
 * themselves; newest first.
 */
export const approvalListSchema = z.object({
  requests: z.array(approvalRequestSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  counts: z.object({ open: z.number().int(), decided: z.number().int(), all: z.number().int() }),
});
export type ApprovalList = z.infer<typeof approvalListSchema>;

/** POST /backend/approvals/{id}/approve. */
export const approveBodySchema = z.object({
  comment: z.string().trim().max(2000, 'Der Kommentar ist zu lang (max. 2.000 Zeichen).').optional(),
});
export type ApproveBody = z.infer<typeof approveBodySchema>;

/** POST /backend/approvals/{id}/decline. */
export const declineBodySchema = z.object({
  reason: z
    .string({ error: 'Bitte gib einen Grund für die Ablehnung an.' })
    .trim()
    .min(1, 'Bitte gib einen Grund für die Ablehnung an.')
    .max(2000, 'Der Grund ist zu lang (max. 2.000 Zeichen).'),
});
export type DeclineBody = z.infer<typeof declineBodySchema>;

/**
 * The envelope's side (`approval` of GET /backend/signature/envelopes/:id): whether the rules ask for an
 * approval now, why, and the latest request for it. `POST /backend/signature/envelopes/:id/approval`
 * takes the send body (`sendEnvelopeSchema`) and answers 201 with the request; the envelope is sent
 * when an approver approves.
 */
export const envelopeApprovalSchema = z.object({
  /** The envelope needs an approval it does not have: `Senden` becomes `Zur Freigabe senden`. */
  required: z.boolean(),
  /** Why, for the current document version (empty when none is needed). */
  reasons: z.array(approvalReasonSchema),
  reasonTexts: z.array(z.string()),
  /** The latest request for this envelope, whatever its status; null when never asked. */
  request: approvalRequestSchema
    .pick({
      id: true,
      status: true,
      requestedBy: true,
      requestedAt: true,
      reasons: true,
      reasonTexts: true,
      decidedBy: true,
      decidedAt: true,
      comment: true,
      voidReason: true,
      documentVersion: true,
      send: true,
    })
    .nullable(),
});
export type EnvelopeApproval = z.infer<typeof envelopeApprovalSchema>;

/** The body of 409 `approval_required` when an envelope is sent without the approval it needs. */
export const approvalRequiredErrorSchema = z.object({
  error: z.literal('approval_required'),
  message: z.string(),
  reasons: z.array(approvalReasonSchema),
  reasonTexts: z.array(z.string()),
});
export type ApprovalRequiredError = z.infer<typeof approvalRequiredErrorSchema>;

/**
 * GET /backend/approvals/{id}/comparison: for an edited text, the request's document version against
 * the generated version 1, paragraph by paragraph (the template library's comparison). The document
 * itself: GET /backend/approvals/{id}/document (DOCX) and /document.pdf where a PDF rendition exists.
 */
export const approvalComparisonSchema = z.object({
  /** The request's version differs in its body text from what was generated. */
  edited: z.boolean(),
  generatedVersion: z.number().int(),
  version: z.number().int(),
  paragraphs: z.array(paragraphChangeSchema),
});
export type ApprovalComparison = z.infer<typeof approvalComparisonSchema>;
