import { z } from 'zod';
import { COMPANIES, type Company } from '../documents/catalogue.js';
import type { RecipientRole } from '../signature.js';
import { CONTRACT_KINDS } from './contracts.js';

/**
 * `/auswertung`: the figures of the contract work for leaders and legal staff — contracts ending per
 * month, how long a contract takes from its document to sent and to signed, how long a Freigabe takes,
 * where open envelopes wait and why signers decline. Months are calendar months in Berlin (`YYYY-MM`).
 */

export const FIGURES_MONTHS_DEFAULT = 12;
export const FIGURES_MONTHS_MAX = 24;
/** The decline reasons shown one by one; the others are summed as „Sonstige“. */
export const FIGURES_TOP_REASONS = 10;

export const FIGURES_COMPANY_LABELS: Record<Company, string> = { wm: 'WM', we: 'WE', wp: 'WP' };

/** GET /backend/contract-figures: a company, or all; how many months back (and ahead for the ends). */
export const contractFiguresQuerySchema = z.object({
  company: z.enum(COMPANIES, { error: 'Diese Gesellschaft gibt es nicht.' }).optional(),
  months: z.coerce
    .number({ error: 'Bitte gib eine Zahl von Monaten an.' })
    .int('Bitte gib eine ganze Zahl von Monaten an.')
    .min(1, 'Mindestens 1 Monat.')
    .max(FIGURES_MONTHS_MAX, `Höchstens ${FIGURES_MONTHS_MAX} Monate.`)
    .default(FIGURES_MONTHS_DEFAULT),
});
export type ContractFiguresQuery = z.infer<typeof contractFiguresQuerySchema>;

const month = z.string().regex(/^\d{4}-\d{2}$/);
/** Median and 90th percentile (continuous) of a list of durations; null where the list is empty. */
const spreadSchema = z.object({ median: z.number().nullable(), p90: z.number().nullable() });
export type FigureSpread = z.infer<typeof spreadSchema>;

const countsByKind = z.object(
  Object.fromEntries(CONTRACT_KINDS.map((kind) => [kind, z.number().int()])) as Record<
    (typeof CONTRACT_KINDS)[number],
    z.ZodNumber
  >,
);

/** One month of lead times: how many envelopes were completed, and their durations in days. */
const leadTimeSchema = z.object({
  month,
  count: z.number().int(),
  /** From the document's creation to the envelope's first sending. */
  toSent: spreadSchema,
  /** From the document's creation to the envelope's completion (the last signature). */
  toCompleted: spreadSchema,
});
export type LeadTimeMonth = z.infer<typeof leadTimeSchema>;

export const contractFiguresSchema = z.object({
  /** The day the figures were computed for (Berlin), ISO. */
  today: z.string(),
  company: z.enum(COMPANIES).nullable(),
  months: z.number().int(),
  /**
   * Contracts ending per month from today on (this month first), by kind: those neither terminated nor
   * replaced, as `/vertraege` counts „endet in … Tagen“. A termination ends its contract on its own date.
   */
  endings: z.array(z.object({ month, total: z.number().int(), byKind: countsByKind })),
  /** Per month of completion, the months back to this one: every completed envelope, then per company and kind. */
  leadTimes: z.object({
    all: z.array(leadTimeSchema),
    byCompany: z.array(leadTimeSchema.extend({ company: z.enum(COMPANIES) })),
    byKind: z.array(leadTimeSchema.extend({ kind: z.enum(CONTRACT_KINDS) })),
  }),
  /** Freigabe: from the request to its decision, in hours, per month of the decision. */
  approvals: z.array(z.object({ month, count: z.number().int(), hours: spreadSchema })),
  /** Sent envelopes by the step whose signer they wait for now (parallel signers count at each). */
  waiting: z.array(z.object({ routingOrder: z.number().int(), role: z.string(), count: z.number().int() })),
  /** Declines of the months back by their reason (trimmed): the most frequent, then the rest (reason null). */
  declines: z.array(z.object({ reason: z.string().nullable(), count: z.number().int() })),
});
export type ContractFigures = z.infer<typeof contractFiguresSchema>;

/** How a signer's step reads: „Kunde (1. Unterschrift)“, „Projektpartner“, „Firma (Gegenzeichnung)“. */
export const WAITING_ROLE_LABELS: Record<RecipientRole, string> = {
  Kunde: 'Kunde (1. Unterschrift)',
  Kunde2: 'Kunde (2. Unterschrift)',
  Projektpartner: 'Projektpartner',
  Firma: 'Firma (Gegenzeichnung)',
  CC: 'Kopie (CC)',
};

export function waitingStepLabel(step: { routingOrder: number; role: string }): string {
  const role = WAITING_ROLE_LABELS[step.role as RecipientRole] ?? step.role;
  return `${step.routingOrder}. Schritt: ${role}`;
}
