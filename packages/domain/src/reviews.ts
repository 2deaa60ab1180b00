import { z } from 'zod';
import { signerVerificationSchema } from './signing.js';

/**
 * Negotiation: a generated contract goes to the counterparty for review through personal links; they
 * comment and suggest changes (tracked, labelled as theirs), legal accepts or rejects each, and the
 * agreed version goes out for signature. Every round is a version of the document.
 */

/** Most people of the counterparty one round goes to. */
export const REVIEW_MAX_REVIEWERS = 5;
/** Days a review link works unless renewed. */
export const REVIEW_LINK_DAYS = 30;
/** Days before the due date the reviewers are reminded, once. */
export const REVIEW_REMINDER_DAYS_BEFORE = 2;
/** Longest comment. */
export const REVIEW_COMMENT_MAX = 4000;

/** The header that carries a reviewer's link token: never in a URL the server logs. */
export const REVIEW_TOKEN_HEADER = 'x-review-token';

const reviewerInputSchema = z.object({
  name: z
    .string({ error: 'Bitte gib den Namen an.' })
    .trim()
    .min(1, 'Bitte gib den Namen an.')
    .max(200, 'Der Name ist zu lang (höchstens 200 Zeichen).'),
  email: z
    .string({ error: 'Bitte gib die E-Mail-Adresse an.' })
    .trim()
    .max(254, 'Die E-Mail-Adresse ist zu lang.')
    .pipe(z.email('Bitte gib eine gültige E-Mail-Adresse an.')),
});
export type ReviewerInput = z.infer<typeof reviewerInputSchema>;

const dueDateSchema = z.iso
  .date('Bitte gib ein Datum an (JJJJ-MM-TT).')
  .describe('The day the answer is due');

const roundInputFields = {
  reviewers: z
    .array(reviewerInputSchema, { error: 'Bitte nenne mindestens eine Person.' })
    .min(1, 'Bitte nenne mindestens eine Person.')
    .max(REVIEW_MAX_REVIEWERS, `Höchstens ${REVIEW_MAX_REVIEWERS} Personen je Runde.`),
  message: z.string().trim().max(2000, 'Die Nachricht ist zu lang (höchstens 2000 Zeichen).').default(''),
  dueDate: dueDateSchema,
};

/** POST /backend/documents/:id/review: the first round. */
export const startReviewSchema = z.object(roundInputFields);
export type StartReviewRequest = z.input<typeof startReviewSchema>;

/** POST /backend/reviews/:id/rounds: the next round, the document's latest version. */
export const nextRoundSchema = z.object(roundInputFields);
export type NextRoundRequest = z.input<typeof nextRoundSchema>;

export const SUGGESTION_OUTCOMES = ['open', 'accepted', 'rejected'] as const;
export type SuggestionOutcome = (typeof SUGGESTION_OUTCOMES)[number];

/** One tracked change the counterparty suggested. */
export const suggestionSchema = z.object({
  id: z.uuid(),
  kind: z.enum(['insert', 'delete']),
  /** The inserted or deleted text. */
  text: z.string(),
  /** The paragraph it stands in, as sent (shortened), so a list of changes reads without the document. */
  context: z.string(),
  author: z.string(),
  /** When the reviewer made it (ISO), or returned the file that holds it. */
  at: z.string(),
  outcome: z.enum(SUGGESTION_OUTCOMES),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
});
export type Suggestion = z.infer<typeof suggestionSchema>;

/** What the counterparty sees of their suggestions of an earlier round. */
export const reviewerSuggestionSchema = suggestionSchema.pick({
  kind: true,
  text: true,
  context: true,
  outcome: true,
});

export const REVIEW_COMMENT_VISIBILITIES = ['external', 'internal'] as const;

export const reviewCommentSchema = z.object({
  id: z.uuid(),
  round: z.number().int().min(1),
  /** The comment it answers; null: a thread of its own. */
  parentId: z.uuid().nullable(),
  /** `internal` comments are the company's own and never reach the counterparty. */
  visibility: z.enum(REVIEW_COMMENT_VISIBILITIES),
  author: z.object({ name: z.string(), side: z.enum(['company', 'counterparty']) }),
  /** The passage it is about, as the author selected it. */
  quote: z.string(),
  text: z.string(),
  createdAt: z.string(),
});
export type ReviewComment = z.infer<typeof reviewCommentSchema>;

/** POST /backend/reviews/:id/comments (staff). */
export const staffCommentSchema = z.object({
  text: z
    .string({ error: 'Bitte schreibe einen Kommentar.' })
    .trim()
    .min(1, 'Bitte schreibe einen Kommentar.')
    .max(REVIEW_COMMENT_MAX, `Der Kommentar ist zu lang (höchstens ${REVIEW_COMMENT_MAX} Zeichen).`),
  visibility: z.enum(REVIEW_COMMENT_VISIBILITIES, { error: 'Bitte wähle: intern oder für die Gegenseite.' }),
  parentId: z.uuid('Diesen Kommentar gibt es nicht.').nullable().default(null),
  quote: z.string().trim().max(1000, 'Die Textstelle ist zu lang (höchstens 1000 Zeichen).').default(''),
});
export type StaffCommentRequest = z.input<typeof staffCommentSchema>;

/**
 * POST /backend/review/comments (the counterparty): always external. Its messages address a business
 * partner („Sie“); the page shows its own in the contract's language before anything is sent.
 */
export const reviewerCommentSchema = z.object({
  text: z
    .string({ error: 'Bitte schreiben Sie einen Kommentar.' })
    .trim()
    .min(1, 'Bitte schreiben Sie einen Kommentar.')
    .max(REVIEW_COMMENT_MAX, `Der Kommentar ist zu lang (höchstens ${REVIEW_COMMENT_MAX} Zeichen).`),
  parentId: z.uuid('Diesen Kommentar gibt es nicht.').nullable().default(null),
  quote: z.string().trim().max(1000, 'Die Textstelle ist zu lang (höchstens 1000 Zeichen).').default(''),
});
export type ReviewerCommentRequest = z.input<typeof reviewerCommentSchema>;

/** POST /backend/reviews/:id/decisions: each suggestion named, or all open ones. */
export const decideSuggestionsSchema = z.object({
  /** The document's latest version, as the deciding person sees it (a newer save is a conflict). */
  baseVersion: z.number().int().min(1),
  decisions: z
    .array(
      z.object({ id: z.uuid('Diesen Vorschlag gibt es nicht.'), outcome: z.enum(['accepted', 'rejected']) }),
    )
    .max(1000)
    .default([]),
  /** Every open suggestion of the round. */
  all: z.enum(['accepted', 'rejected']).nullable().default(null),
});
export type DecideSuggestionsRequest = z.input<typeof decideSuggestionsSchema>;

export const REVIEW_ROUND_STATES = ['sent', 'returned', 'withdrawn'] as const;

export const reviewReviewerSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  linkExpiresAt: z.string(),
  withdrawnAt: z.string().nullable(),
  openedAt: z.string().nullable(),
  remindedAt: z.string().nullable(),
});
export type ReviewReviewer = z.infer<typeof reviewReviewerSchema>;

export const reviewRoundSchema = z.object({
  id: z.uuid(),
  number: z.number().int().min(1),
  state: z.enum(REVIEW_ROUND_STATES),
  message: z.string(),
  dueDate: z.string(),
  sentBy: z.string(),
  sentAt: z.string(),
  /** The document version the counterparty was sent, and its SHA-256. */
  sentVersion: z.number().int(),
  sentSha256: z.string(),
  returnedAt: z.string().nullable(),
  returnedBy: z.string().nullable(),
  /** `browser`: suggested on the review page; `upload`: their own Word file. */
  returnedVia: z.enum(['browser', 'upload', 'none']).nullable(),
  /** The version that holds their suggestions as tracked changes. */
  returnedVersion: z.number().int().nullable(),
  returnedSha256: z.string().nullable(),
  reviewers: z.array(reviewReviewerSchema),
  suggestions: z.array(suggestionSchema),
});
export type ReviewRound = z.infer<typeof reviewRoundSchema>;

export const REVIEW_STATES = ['open', 'agreed', 'withdrawn'] as const;

/** GET /backend/documents/:id/review: the document's negotiation, or null when none was started. */
export const reviewSchema = z.object({
  id: z.uuid(),
  documentId: z.uuid(),
  state: z.enum(REVIEW_STATES),
  language: z.enum(['de', 'en']),
  rounds: z.array(reviewRoundSchema),
  comments: z.array(reviewCommentSchema),
  agreedAt: z.string().nullable(),
  agreedBy: z.string().nullable(),
  /** The version agreed on, and its SHA-256. */
  agreedVersion: z.number().int().nullable(),
  /** The envelope draft the agreed version goes out with (the document's e-signature draft), if any. */
  envelopeId: z.uuid().nullable(),
});
export type Review = z.infer<typeof reviewSchema>;

export const documentReviewSchema = z.object({
  review: reviewSchema.nullable(),
  /**
   * Before a first round: the counterparty's signers on the document's envelope draft (not the company's
   * countersignatory, nor a copy's recipient), the people the form starts with; empty otherwise.
   */
  proposedReviewers: z.array(z.object({ name: z.string(), email: z.string() })),
});
export type DocumentReview = z.infer<typeof documentReviewSchema>;

/** POST /backend/reviews/:id/agree: where the agreed version goes next. */
export const reviewAgreedSchema = z.object({
  review: reviewSchema,
  /** The sender view to send the agreed version for signature, where the document has an envelope draft. */
  envelopeId: z.uuid().nullable(),
});

/** One paragraph of the latest version that differs from what the template made for this deal. */
export const differingParagraphSchema = z.object({
  /** The paragraph as generated; null: added since. */
  generated: z.string().nullable(),
  /** The paragraph now; null: removed since. */
  current: z.string().nullable(),
  /** The template marks it: a change needs Freigabe. */
  marked: z.boolean(),
});
export type DifferingParagraph = z.infer<typeof differingParagraphSchema>;

/** GET /backend/documents/:id/differences. */
export const documentDifferencesSchema = z.object({
  version: z.number().int(),
  paragraphs: z.array(differingParagraphSchema),
});
export type DocumentDifferences = z.infer<typeof documentDifferencesSchema>;

/** GET /backend/review: what the counterparty sees behind their link. */
export const reviewerViewSchema = z.object({
  fileName: z.string(),
  /** The SHA-256 of the version this round sent: what the document route answers. */
  documentSha256: z.string(),
  language: z.enum(['de', 'en']),
  company: z.string(),
  sender: z.object({ name: z.string(), email: z.string() }),
  reviewer: z.object({ name: z.string(), email: z.string() }),
  round: z.number().int(),
  /** Withheld (empty) until the code is confirmed. */
  message: z.string(),
  dueDate: z.string(),
  /** When this round was sent back; null: still open for their changes. */
  returnedAt: z.string().nullable(),
  verification: signerVerificationSchema,
  /** Their suggestions of the rounds before, with what became of each. */
  earlier: z.array(z.object({ round: z.number().int(), suggestions: z.array(reviewerSuggestionSchema) })),
  /** The external comments of every round, the company's replies among them. */
  comments: z.array(reviewCommentSchema),
});
export type ReviewerView = z.infer<typeof reviewerViewSchema>;

/** Error codes of the reviewer routes, with their HTTP status; each comes with a German page text. */
export const REVIEW_LINK_ERRORS = {
  link_invalid: 404,
  /** Expired, withdrawn, or the review ended. */
  link_expired: 410,
  link_withdrawn: 410,
  /** The round was sent back already: comments and changes are closed. */
  round_returned: 409,
} as const;
export type ReviewLinkError = keyof typeof REVIEW_LINK_ERRORS;

/** How the reviewer's changes came back: the header of POST /backend/review/return. */
export const REVIEW_RETURN_SOURCE_HEADER = 'x-review-source';
