import { z } from 'zod';
import { APPROVAL_STATUSES } from './approvals.js';
import { envelopeSealSchema } from './seal-status.js';
import { ENVELOPE_STATUSES, RECIPIENT_ROLES, RECIPIENT_STATUSES } from './signature.js';

/**
 * GET /backend/matches/:matchId/documents: every document of a match the user may see, newest
 * first, each with its e-signature envelope if it was sent for signing.
 */
export const historyEntrySchema = z.object({
  documentId: z.string(),
  docKey: z.string(),
  form: z.string(),
  fileName: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  status: z.enum(['rendering', 'ready', 'failed']),
  /** The latest stored version; null while rendering or after a failure. */
  version: z.number().int().nullable(),
  /** The template version it was rendered from; null for documents made before templates had versions. */
  templateVersion: z.number().int().nullable(),
  /**
   * Freigabe of a document downloaded rather than signed: the status of its newest approval request;
   * null when never asked. An envelope's approval is the envelope's `approval`.
   */
  approval: z.enum(APPROVAL_STATUSES).nullable().optional(),
  envelope: z
    .object({
      id: z.string(),
      provider: z.enum(['builtin', 'docusign']),
      status: z.enum(ENVELOPE_STATUSES),
      updatedAt: z.string(),
      recipients: z.array(
        z.object({ role: z.enum(RECIPIENT_ROLES), name: z.string(), status: z.enum(RECIPIENT_STATUSES) }),
      ),
      /** The certificate of a completed built-in envelope can be downloaded. */
      certificateAvailable: z.boolean(),
      /** Its sealed PDF (certificate, signatures, the document inside) is made and can be downloaded. */
      signedPdfAvailable: z.boolean(),
      /** The seal of a completed envelope; null for any other status. */
      seal: envelopeSealSchema.nullable(),
      /** Freigabe: the status of the envelope's latest approval request; null when never asked. */
      approval: z.enum(APPROVAL_STATUSES).nullable().optional(),
    })
    .nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
export const matchHistorySchema = z.array(historyEntrySchema);
