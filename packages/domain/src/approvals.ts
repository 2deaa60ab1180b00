/**
 * Freigabe (approvals): a contract that needs a second pair of eyes waits for it — by the deal's
 * margin, by an edited text, by document type. The rules live in the database
 * (`/backend/approval-rules`), the requests under `/backend/approvals`; an envelope that needs an
 * approval and has none is refused by the server (409 with the reasons).
 *
 * This file owns the requests: their statuses, `/freigaben`'s list, the decisions' bodies and the
 * envelope's side. The rules are in approval-rules.ts, the margin and the reasons in approval-reasons.ts.
 */
import { z } from 'zod';
import { approvalReasonSchema } from './approval-reasons.js';
import { APPROVER_GROUPS, approvalRulesSchema } from './approval-rules.js';
import { paragraphChangeSchema } from './template-library.js';

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
    .object({
      state: z.enum(APPROVAL_SEND_STATES),
      at: z.string().nullable(),
      error: z.string().nullable(),
      /**
       * DocuSign: the send failed because an attempt was handed to DocuSign without an answer. Whether
       * DocuSign has the envelope is unclear; once a person checked, `send-again` lets it run again.
       */
      uncertain: z.boolean().optional(),
    })
    .nullable(),
  /** The caller may confirm an uncertain send's envelope is not at DocuSign and send it again. */
  maySendAgain: z.boolean().optional(),
  /** Asked for as one deal of a batch (Serie): decided in the batch's grouped request. */
  batchId: z.string().nullable().optional(),
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
/**
 * A batch's deals that need Freigabe, asked for as one grouped request: approved whole or deal by deal
 * (`/freigaben/serien/{batchId}`). Each deal keeps its own request, decision and send.
 */
export const approvalBatchGroupSchema = z.object({
  batchId: z.string(),
  /** The batch's document, e.g. „Einzelauftrag (Kunde, WM)“. */
  title: z.string(),
  requestedBy: person,
  requestedAt: z.string(),
  deals: z.number().int(),
  open: z.number().int(),
  approved: z.number().int(),
  declined: z.number().int(),
  void: z.number().int(),
  /** The reasons the deals need it, each once. */
  reasonTexts: z.array(z.string()),
  /** The caller may decide at least one open deal now. */
  mayDecide: z.boolean(),
});
export type ApprovalBatchGroup = z.infer<typeof approvalBatchGroupSchema>;

/** GET /backend/approval-batches/{batchId}: the group and every deal's request. */
export const approvalBatchSchema = approvalBatchGroupSchema.extend({
  requests: z.array(approvalRequestSchema),
});
export type ApprovalBatch = z.infer<typeof approvalBatchSchema>;

/** POST /backend/approval-batches/{batchId}/approve: what approving the whole batch did. */
export const approvalBatchOutcomeSchema = z.object({
  /** Deals approved now. */
  approved: z.number().int(),
  /** Open deals the caller may not decide (their own, or not their group's), or that became void. */
  skipped: z.number().int(),
  batch: approvalBatchSchema,
});
export type ApprovalBatchOutcome = z.infer<typeof approvalBatchOutcomeSchema>;

export const approvalListSchema = z.object({
  /** Single requests; a batch's deals are in `batches`. */
  requests: z.array(approvalRequestSchema),
  /** The batches with deals matching the filter, newest first (not paged: few at a time). */
  batches: z.array(approvalBatchGroupSchema),
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

/**
 * POST /backend/approvals/{id}/send-again: the requester or an administrator checked DocuSign and
 * confirms that the envelope of an uncertain send is not there, so it may be sent again.
 */
export const sendAgainBodySchema = z.object({
  notAtDocusign: z.literal(true, {
    error: 'Bitte bestätige, dass du in DocuSign geprüft hast: der Umschlag ist dort nicht angekommen.',
  }),
});
export type SendAgainBody = z.infer<typeof sendAgainBodySchema>;

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
/** A request as the sender view and the editor show it beside the document. */
export const approvalRequestSummarySchema = approvalRequestSchema.pick({
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
  maySendAgain: true,
});
export type ApprovalRequestSummary = z.infer<typeof approvalRequestSummarySchema>;

export const envelopeApprovalSchema = z.object({
  /** The envelope needs an approval it does not have: `Senden` becomes `Zur Freigabe senden`. */
  required: z.boolean(),
  /** Why, for the current document version (empty when none is needed). */
  reasons: z.array(approvalReasonSchema),
  reasonTexts: z.array(z.string()),
  /** The latest request for this envelope, whatever its status; null when never asked. */
  request: approvalRequestSummarySchema.nullable(),
  /**
   * DocuSign: a draft held here for Freigabe, not yet at DocuSign. It goes out from our sender view once
   * approved, so the sender chooses the company's countersignatory there, as with built-in signing.
   */
  held: z.boolean().optional(),
});
export type EnvelopeApproval = z.infer<typeof envelopeApprovalSchema>;

/**
 * GET /backend/documents/{id}/approval: a document downloaded rather than signed (a DOCX contract, a
 * termination, an offer, an agreement) and its latest version. `POST` on the same path asks for the
 * approval of that version (201 with the request); `GET /backend/documents/{id}/download` is refused with
 * 409 `approval_required` until it is released.
 */
export const documentApprovalSchema = z.object({
  /** False for a family sent for signature: its envelope is what gets approved. */
  applies: z.boolean(),
  /** The document's latest version, which this answer is about. */
  version: z.number().int(),
  /** The version needs an approval it does not have: `Herunterladen` becomes `Zur Freigabe senden`. */
  required: z.boolean(),
  /** Why, for the latest version (empty when none is needed). */
  reasons: z.array(approvalReasonSchema),
  reasonTexts: z.array(z.string()),
  /** Who released the latest version, and when; null when not released. */
  released: z.object({ by: person, at: z.string(), comment: z.string().nullable() }).nullable(),
  /** The latest request for this document, whatever its status and version; null when never asked. */
  request: envelopeApprovalSchema.shape.request,
});
export type DocumentApproval = z.infer<typeof documentApprovalSchema>;

/** The body of 409 `approval_required` when an envelope is sent without the approval it needs. */
export const approvalRequiredErrorSchema = z.object({
  error: z.literal('approval_required'),
  message: z.string(),
  reasons: z.array(approvalReasonSchema),
  reasonTexts: z.array(z.string()),
});
export type ApprovalRequiredError = z.infer<typeof approvalRequiredErrorSchema>;

/**
 * The body of 409 `approval_required` from a DOCX generation whose document needs an approval, where
 * the answer would hand out the final file (the editors `download` and `google`): the document is
 * stored, and `documentId` is what `POST /backend/documents/{id}/approval` asks for.
 */
export const generationApprovalRequiredSchema = approvalRequiredErrorSchema.extend({
  documentId: z.string().min(1),
});
export type GenerationApprovalRequired = z.infer<typeof generationApprovalRequiredSchema>;

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
