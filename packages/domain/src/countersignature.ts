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
 * Until an administrator switches it: a contract goes out only with the company's countersignatory, so
 * the company's block of a signed contract carries a person's signature, not only the seal. The other
 * families are letters the company sends: their seal may stand for the company. Administrators change
 * either on /verwaltung (tab Gegenzeichnung).
 */
export const COUNTERSIGNATURE_DEFAULTS: Record<(typeof COUNTERSIGNATURE_FAMILIES)[number], boolean> = {
  contract: false,
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
