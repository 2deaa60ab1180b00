import { z } from 'zod';
import type { DocumentFamily } from './documents/catalogue.js';

/** The document families an administrator may allow to be sent without a countersignatory. */
export const COUNTERSIGNATURE_FAMILIES = [
  'contract',
  'termination',
  'offer',
  'agreement',
] as const satisfies readonly DocumentFamily[];

/**
 * Until an administrator switches it, every family may be sent without a countersignatory (the seal
 * then stands for the company): envelopes made before countersigning existed, and every flow that
 * sends as drafted, keep working. Administrators switch contracts off on /verwaltung.
 */
export const COUNTERSIGNATURE_DEFAULTS: Record<(typeof COUNTERSIGNATURE_FAMILIES)[number], boolean> = {
  contract: true,
  termination: true,
  offer: true,
  agreement: true,
};

/** GET /backend/admin/countersignature: the switch „Ohne Gegenzeichnung senden erlaubt“ per family. */
export const countersignatureSettingSchema = z.object({
  family: z.enum(COUNTERSIGNATURE_FAMILIES),
  /** German, e.g. `Vertrag`. */
  label: z.string(),
  withoutAllowed: z.boolean(),
  /** Who changed it last and when; null while the default holds. */
  changedBy: z.string().nullable(),
  changedAt: z.string().nullable(),
});
export type CountersignatureSetting = z.infer<typeof countersignatureSettingSchema>;

/** PUT /backend/admin/countersignature/:family. */
export const countersignatureChangeSchema = z.object({
  withoutAllowed: z.boolean({ error: 'Bitte gib an, ob ohne Gegenzeichnung gesendet werden darf.' }),
});
