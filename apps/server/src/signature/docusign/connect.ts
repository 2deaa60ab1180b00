import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EnvelopeStatus } from '@vertragsgenerator/domain';
import { z } from 'zod';

/**
 * DocuSign Connect, the webhook DocuSign calls when an envelope changes. We support the format
 * DocuSign recommends, "JSON SIM" (one message per event); the Connect configuration must use it and
 * must include the HMAC signature. Documents need not be included: we only read the event.
 */

const SIGNATURE_HEADER = /^x-docusign-signature-\d+$/;

/**
 * Whether the raw body carries a valid HMAC signature. DocuSign signs with every active Connect key
 * and sends one header per key (`X-DocuSign-Signature-1`, `-2`, …), so during a key rotation any of
 * them may be the one made with our key.
 */
export function verifyConnectSignature(
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  hmacKey: string,
): boolean {
  const expected = createHmac('sha256', hmacKey).update(rawBody).digest();
  const signatures = Object.entries(headers)
    .filter(([name]) => SIGNATURE_HEADER.test(name.toLowerCase()))
    .flatMap(([, value]) => (Array.isArray(value) ? value : value === undefined ? [] : [value]));
  return signatures.some((signature) => {
    const given = Buffer.from(signature.trim(), 'base64');
    // timingSafeEqual throws on different lengths; the length of an HMAC-SHA256 is no secret.
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export interface ConnectEvent {
  /** DocuSign's envelope id, our `externalId`. */
  externalId: string;
  /** Our status the event moves the envelope to; null for events that change none. */
  status: EnvelopeStatus | null;
  /** DocuSign's own word for it, for the envelope's history: `delivered`, `corrected`, `recipient-completed`, … */
  providerStatus: string;
  /** DocuSign's id of the recipient a recipient event is about; null for envelope events. */
  recipientId: string | null;
  /** When DocuSign generated the event: Connect retries and may deliver out of order. */
  at: Date;
  /**
   * The role names (`roleName`) of the envelope's signers when the event was generated, as the message's
   * envelope summary lists them; null when it lists no recipients (Connect's "Include Recipients" off).
   */
  signerRoles: string[] | null;
}

export const connectEventSchema = z.object({
  event: z.string().regex(/^(envelope|recipient)-[a-z-]+$/),
  generatedDateTime: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
  data: z.object({
    envelopeId: z.string().min(1),
    recipientId: z.string().min(1).optional(),
    envelopeSummary: z
      .object({
        recipients: z
          .object({ signers: z.array(z.object({ roleName: z.string().optional() })).optional() })
          .optional(),
      })
      .optional(),
  }),
});

/**
 * DocuSign's envelope statuses in the order an envelope passes them; completed, declined and voided
 * end it, so nothing comes after any of them. Connect retries a delivery that failed for hours and
 * does not keep the order of events, so an envelope's status only ever moves to a higher rank
 * (EnvelopesRepository.recordProviderStatus): a late `delivered` does not undo `completed`.
 */
export const DOCUSIGN_STATUS_RANK: ReadonlyMap<string, number> = new Map([
  ['created', 0],
  ['sent', 1],
  ['delivered', 2],
  ['completed', 3],
  ['declined', 3],
  ['voided', 3],
]);

/** DocuSign envelope statuses that change ours; `delivered` means a signer opened it, still under way. */
const STATUS_OF = new Map<string, EnvelopeStatus>([
  ['created', 'created'],
  ['sent', 'sent'],
  ['delivered', 'sent'],
  ['completed', 'completed'],
  ['declined', 'declined'],
  ['voided', 'voided'],
]);

/**
 * The rank of each of our statuses: that of the first DocuSign status that leads to it (`sent` for
 * ours `sent`, which `delivered` leads to as well). `failed` is not among them: it is the envelope
 * DocuSign never confirmed, which Connect cannot report. `lapsed` ranks with the statuses that end an
 * envelope: its document was deleted here, so nothing DocuSign reports later moves it.
 */
export const ENVELOPE_STATUS_RANK: ReadonlyMap<EnvelopeStatus, number> = ourStatusRanks();

function ourStatusRanks(): Map<EnvelopeStatus, number> {
  const ranks = new Map<EnvelopeStatus, number>();
  for (const [docusignStatus, ours] of STATUS_OF) {
    const rank = DOCUSIGN_STATUS_RANK.get(docusignStatus) ?? 0;
    ranks.set(ours, Math.min(ranks.get(ours) ?? rank, rank));
  }
  ranks.set('lapsed', Math.max(...DOCUSIGN_STATUS_RANK.values()));
  return ranks;
}

/**
 * The envelope and status a Connect JSON SIM message reports, or null when it is no Connect event.
 * Recipient events (`recipient-completed`, …) are reported with their event name and no status of
 * ours: the envelope's status follows from the envelope events DocuSign sends alongside.
 */
export function parseConnectEvent(body: unknown): ConnectEvent | null {
  const parsed = connectEventSchema.safeParse(body);
  if (!parsed.success) return null;
  const { event, generatedDateTime, data } = parsed.data;
  const recipients = data.envelopeSummary?.recipients;
  const reported = {
    externalId: data.envelopeId,
    at: new Date(generatedDateTime),
    // Recipients listed without `signers`: the envelope has no signer at all.
    signerRoles: recipients ? (recipients.signers ?? []).map((signer) => signer.roleName ?? '') : null,
  };
  if (!event.startsWith('envelope-')) {
    return { ...reported, status: null, providerStatus: event, recipientId: data.recipientId ?? null };
  }
  const docusignStatus = event.slice('envelope-'.length);
  return {
    ...reported,
    status: STATUS_OF.get(docusignStatus) ?? null,
    providerStatus: docusignStatus,
    recipientId: null,
  };
}
