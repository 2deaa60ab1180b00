import { z } from 'zod';

/** What a webhook endpoint can be told of; each is one `type` of the Standard Webhooks payload. */
export const WEBHOOK_EVENT_TYPES = [
  'document.generated',
  'envelope.sent',
  'envelope.signed',
  'envelope.completed',
  'envelope.declined',
  'envelope.voided',
  'envelope.expired',
  'template.published',
  'clause.published',
  'approval.requested',
  'approval.approved',
  'approval.declined',
  'contract.created',
  'contract.deadline_approaching',
  'contract.ended',
  'batch.completed',
  'review.sent',
  'review.returned',
  'review.agreed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** German, for /verwaltung → Integrationen. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'document.generated': 'Dokument erzeugt',
  'envelope.sent': 'Umschlag versendet',
  'envelope.signed': 'Unterschrift geleistet (je Unterzeichner)',
  'envelope.completed': 'Umschlag abgeschlossen (versiegeltes PDF)',
  'envelope.declined': 'Unterschrift abgelehnt',
  'envelope.voided': 'Umschlag verworfen',
  'envelope.expired': 'Umschlag abgelaufen',
  'template.published': 'Vorlage veröffentlicht',
  'clause.published': 'Klausel veröffentlicht',
  'approval.requested': 'Freigabe angefragt',
  'approval.approved': 'Freigabe erteilt',
  'approval.declined': 'Freigabe abgelehnt',
  'contract.created': 'Vertrag erfasst (unterschrieben)',
  'contract.deadline_approaching': 'Kündigungsfrist oder Vertragsende naht',
  'contract.ended': 'Vertrag beendet',
  'batch.completed': 'Serie fertig (alle Deals bearbeitet)',
  'review.sent': 'Vertrag zur Prüfung an die Gegenseite gesendet',
  'review.returned': 'Gegenseite hat ihre Prüfung zurückgesendet',
  'review.agreed': 'Verhandlung abgeschlossen (Fassung vereinbart)',
};

/** POST /backend/admin/webhooks. */
export const webhookEndpointCreateSchema = z.object({
  url: z
    .string({ error: 'Bitte gib die Adresse des Empfängers an.' })
    .trim()
    .min(1, 'Bitte gib die Adresse des Empfängers an.')
    .max(2000, 'Die Adresse ist zu lang (höchstens 2000 Zeichen).')
    .describe('http or https URL the events are POSTed to'),
  description: z
    .string()
    .trim()
    .max(200, 'Die Beschreibung ist zu lang (höchstens 200 Zeichen).')
    .default(''),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: 'Dieses Ereignis gibt es nicht.' }), {
      error: 'Bitte wähle mindestens ein Ereignis.',
    })
    .min(1, 'Bitte wähle mindestens ein Ereignis.')
    .max(WEBHOOK_EVENT_TYPES.length),
});
export type WebhookEndpointCreate = z.input<typeof webhookEndpointCreateSchema>;

/** PUT /backend/admin/webhooks/:id/active: pause or activate. */
export const webhookEndpointStateSchema = z.object({
  active: z.boolean({ error: 'Bitte gib an, ob der Empfänger aktiv sein soll.' }),
});

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  active: z.boolean(),
  /** Since when a delivery was given up after three days; null while deliveries arrive. */
  failingSince: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  pending: z.number().int(),
  failed: z.number().int(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** The answer to a registration: the only time the secret is shown. */
export const webhookEndpointCreatedSchema = webhookEndpointSchema.extend({
  secret: z.string().describe('whsec_ and the base64 signing key (Standard Webhooks); shown only now'),
});
export type WebhookEndpointCreated = z.infer<typeof webhookEndpointCreatedSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookAttemptSchema = z.object({
  at: z.string(),
  /** The receiver's HTTP status; null when no answer came (refused, timed out). */
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

export const webhookDeliverySchema = z.object({
  id: z.string(),
  /** The `webhook-id` the receiver sees, the same on every attempt. */
  messageId: z.string(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** A write-back to the CRM the outbox gave up (refused by the CRM, or unreachable for three days). */
export const crmWritebackSchema = z.object({
  id: z.string(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  /** The status the CRM was to be told, e.g. „Unterschrieben“. */
  status: z.string(),
  matchId: z.string(),
  envelopeId: z.string().nullable(),
  createdAt: z.string(),
  /** The last attempt's time; null when none was made. */
  lastAttemptAt: z.string().nullable(),
  attempts: z.number().int(),
  /** Why it was given up, in German. */
  reason: z.string().nullable(),
  /**
   * A later status of the same envelope is in the CRM already: sent again, this older one would
   * overwrite it, so `Erneut senden` is refused.
   */
  superseded: z.boolean(),
});
export type CrmWriteback = z.infer<typeof crmWritebackSchema>;

/** GET /backend/admin/crm-writebacks. */
export const crmWritebacksSchema = z.object({
  /** Whether a write-back to the CRM is configured at all. */
  configured: z.boolean(),
  /** The newest 50 given up, newest first. */
  givenUp: z.array(crmWritebackSchema),
});
export type CrmWritebacks = z.infer<typeof crmWritebacksSchema>;
