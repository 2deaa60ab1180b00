import { z } from 'zod';
import { CATALOGUE, type DocumentFamily } from './documents/catalogue.js';

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

/** Where the company's countersignatory signs: after every other signer (the default), or before them. */
export const COUNTERSIGNATURE_POSITIONS = ['last', 'first'] as const;
export type CountersignaturePosition = (typeof COUNTERSIGNATURE_POSITIONS)[number];

/** The templates of the documents that go out for signature (the e-signature form's), by file name. */
export const SIGNATURE_TEMPLATES: readonly string[] = [
  ...new Set([...CATALOGUE.values()].filter((entry) => entry.form === 'docusign').map((e) => e.template)),
].sort();

/** GET /backend/admin/countersignature/order: each template that goes out for signature, and where the company signs. */
export const countersignatureOrderSchema = z.object({
  /** The template's file name, e.g. `rahmenvertrag-de.docx`. */
  template: z.string(),
  position: z.enum(COUNTERSIGNATURE_POSITIONS),
  /** Who changed it last and when; null while the default (last) holds. */
  changedBy: z.string().nullable(),
  changedAt: z.string().nullable(),
});
export type CountersignatureOrder = z.infer<typeof countersignatureOrderSchema>;

/** PUT /backend/admin/countersignature/order/:template. */
export const countersignatureOrderChangeSchema = z.object({
  position: z.enum(COUNTERSIGNATURE_POSITIONS, {
    error: 'Bitte gib an, ob die Firma zuerst oder zuletzt unterschreibt.',
  }),
});
