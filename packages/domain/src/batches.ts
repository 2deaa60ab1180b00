import { z } from 'zod';

/**
 * Serien (`/serien`): one document for many deals at once. A batch is checked first — every deal loaded
 * and its values validated as the single form would — and nothing is made until its starter starts it;
 * then a durable job makes exactly one document per deal, shared by every replica.
 */

/** Up to this many deals per batch. */
export const BATCH_MAX_DEALS = 1000;

/** What the check says a deal will get: a document, a document after Freigabe, or nothing (with why). */
export const BATCH_VERDICTS = ['ready', 'approval', 'cannot'] as const;
export type BatchVerdict = (typeof BATCH_VERDICTS)[number];

export const BATCH_VERDICT_LABELS: Record<BatchVerdict, string> = {
  ready: 'Bereit',
  approval: 'Braucht Freigabe',
  cannot: 'Nicht möglich',
};

/**
 * Where a deal stands in the run. `skipped`: the check said it cannot be made; `cancelled`: the starter
 * cancelled the batch before its turn.
 */
export const BATCH_ITEM_STATUSES = [
  'waiting',
  'running',
  'done',
  'approval',
  'failed',
  'cancelled',
  'skipped',
] as const;
export type BatchItemStatus = (typeof BATCH_ITEM_STATUSES)[number];

export const BATCH_ITEM_STATUS_LABELS: Record<BatchItemStatus, string> = {
  waiting: 'Wartet',
  running: 'Wird erstellt',
  done: 'Erstellt',
  approval: 'Wartet auf Freigabe',
  failed: 'Fehlgeschlagen',
  cancelled: 'Abgebrochen',
  skipped: 'Übersprungen',
};

/** `checked`: waiting for its start; `running` until no deal waits; then `finished` (or `cancelled`). */
export const BATCH_STATUSES = ['checked', 'running', 'finished', 'cancelled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export const BATCH_STATUS_LABELS: Record<BatchStatus, string> = {
  checked: 'Geprüft, nicht gestartet',
  running: 'Läuft',
  finished: 'Fertig',
  cancelled: 'Abgebrochen',
};

/**
 * How a batch's envelopes go out, chosen once for the batch: the company's countersignatory (null:
 * without, where the document's family allows it) and the message every signer reads with the link.
 */
export const batchSendSchema = z.object({
  countersignatory: z.string().trim().min(1).max(100).nullable(),
  message: z.string().trim().max(4000, 'Die Nachricht ist zu lang (max. 4.000 Zeichen).').default(''),
});
export type BatchSend = z.infer<typeof batchSendSchema>;

/** POST /backend/batches: the document, the values for every deal, and the deals (pasted IDs or a file). */
export const batchCheckRequestSchema = z
  .object({
    docKey: z
      .string({ error: 'Bitte wähle ein Dokument.' })
      .trim()
      .min(1, 'Bitte wähle ein Dokument.')
      .max(100),
    /** The dataList fields that are the same for every deal; a file's columns override them per deal. */
    values: z.record(z.string(), z.unknown()).default({}),
    /** Match IDs as pasted: one per line, or separated by commas, semicolons or spaces. */
    matchIds: z.string().max(200_000, 'Zu viel Text: höchstens 1.000 Match-IDs.').optional(),
    /** A CSV (comma or semicolon, with or without BOM) or XLSX file: a Match-ID column and per-deal values. */
    file: z
      .object({
        name: z.string().trim().min(1).max(255),
        /** The file's bytes, base64. */
        content: z.string().max(4_000_000, 'Die Datei ist zu groß (höchstens 3 MB).'),
      })
      .optional(),
    /** E-signature contracts only: how every deal's envelope goes out. */
    send: batchSendSchema.optional(),
  })
  .refine((request) => Boolean(request.matchIds?.trim()) || request.file !== undefined, {
    message: 'Bitte gib Match-IDs ein oder wähle eine Datei.',
    path: ['matchIds'],
  });
export type BatchCheckRequest = z.input<typeof batchCheckRequestSchema>;

export const batchItemSchema = z.object({
  id: z.string(),
  /** The deal's line in the input (1 = the first deal). */
  position: z.number().int(),
  matchId: z.string(),
  /** The other party as the CRM names it; null where the deal could not be loaded. */
  counterparty: z.string().nullable(),
  /** The values this deal gets, the common ones and its own. */
  values: z.record(z.string(), z.unknown()),
  verdict: z.enum(BATCH_VERDICTS),
  /** Why it cannot be made, or why it needs Freigabe (German); null when ready. */
  reason: z.string().nullable(),
  status: z.enum(BATCH_ITEM_STATUSES),
  /** Why its run failed (German); null otherwise. */
  error: z.string().nullable(),
  documentId: z.string().nullable(),
  fileName: z.string().nullable(),
  /** E-signature contracts: the deal's envelope, once made. */
  envelopeId: z.string().nullable(),
  /** The deal's Freigabe request, while one exists: its id and where it stands. */
  approval: z.object({ id: z.string(), status: z.enum(['open', 'approved', 'declined', 'void']) }).nullable(),
  finishedAt: z.string().nullable(),
});
export type BatchItem = z.infer<typeof batchItemSchema>;

/** What the check said (ready, approval, cannot), and where the run stands (the rest). */
export const batchCountsSchema = z.object({
  ready: z.number().int(),
  approval: z.number().int(),
  cannot: z.number().int(),
  waiting: z.number().int(),
  running: z.number().int(),
  /** Made; those waiting for Freigabe included. */
  done: z.number().int(),
  /** Made, waiting for Freigabe before it may go out. */
  waitingApproval: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  skipped: z.number().int(),
});
export type BatchCounts = z.infer<typeof batchCountsSchema>;

export const batchSummarySchema = z.object({
  id: z.string(),
  docKey: z.string(),
  /** The document as a person names it, e.g. „Verlängerung (Kunde, WM)“. */
  title: z.string(),
  status: z.enum(BATCH_STATUSES),
  createdBy: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  deals: z.number().int(),
  counts: batchCountsSchema,
  /** Estimated from the pace so far; null before the first document or when nothing waits. */
  secondsLeft: z.number().nullable(),
});
export type BatchSummary = z.infer<typeof batchSummarySchema>;

export const batchSchema = batchSummarySchema.extend({
  values: z.record(z.string(), z.unknown()),
  /** E-signature contracts: how the envelopes go out; null for Word documents. */
  send: batchSendSchema.nullable(),
  items: z.array(batchItemSchema),
});
export type Batch = z.infer<typeof batchSchema>;
