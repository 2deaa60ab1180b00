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
  /** When DocuSign generated the event: Connect retries and may deliver out of order. */
  at: Date;
}

export const connectEventSchema = z.object({
  event: z.string().regex(/^(envelope|recipient)-[a-z-]+$/),
  generatedDateTime: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
  data: z.object({ envelopeId: z.string().min(1) }),
});

/** DocuSign envelope statuses that change ours; `delivered` means a signer opened it, still under way. */
const STATUS_OF = new Map<string, EnvelopeStatus>([
  ['sent', 'sent'],
  ['delivered', 'sent'],
  ['completed', 'completed'],
  ['declined', 'declined'],
  ['voided', 'voided'],
]);

/**
 * The envelope and status a Connect JSON SIM message reports, or null when it is no Connect event.
 * Recipient events (`recipient-completed`, …) are reported with their event name and no status of
 * ours: the envelope's status follows from the envelope events DocuSign sends alongside.
 */
export function parseConnectEvent(body: unknown): ConnectEvent | null {
  const parsed = connectEventSchema.safeParse(body);
  if (!parsed.success) return null;
  const { event, generatedDateTime, data } = parsed.data;
  const reported = { externalId: data.envelopeId, at: new Date(generatedDateTime) };
  if (!event.startsWith('envelope-')) return { ...reported, status: null, providerStatus: event };
  const docusignStatus = event.slice('envelope-'.length);
  return { ...reported, status: STATUS_OF.get(docusignStatus) ?? null, providerStatus: docusignStatus };
}
