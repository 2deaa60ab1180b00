import { z } from 'zod';
import { envelopeSealSchema } from './seal-status.js';
import { ENVELOPE_EVENT_TYPES, RECIPIENT_ROLES, RECIPIENT_STATUSES } from './signature.js';

/**
 * `/signaturen` — Offene Signaturen: the envelopes a user created (legal staff: all), with
 * the state a sender follows up on. `partially_signed` and `expired` are sent envelopes seen closer:
 * some signer signed, or a signer who is waiting holds a link that no longer works. `awaiting_approval`
 * is a draft with an open approval request (Freigabe).
 */
export const OVERVIEW_STATUSES = [
  'draft',
  'awaiting_approval',
  'sent',
  'partially_signed',
  'expired',
  'completed',
  'declined',
  'voided',
  'failed',
  'lapsed',
] as const;
export type OverviewStatus = (typeof OVERVIEW_STATUSES)[number];

export const OVERVIEW_STATUS_LABELS: Record<OverviewStatus, string> = {
  draft: 'Entwurf',
  awaiting_approval: 'Wartet auf Freigabe',
  sent: 'Gesendet',
  partially_signed: 'Teilweise unterschrieben',
  expired: 'Abgelaufen',
  completed: 'Abgeschlossen',
  declined: 'Abgelehnt',
  voided: 'Verworfen',
  failed: 'Fehlgeschlagen',
  lapsed: 'Verfallen',
};

/** What the overview can be filtered by: one status, the open ones (the default), or all. */
export const OVERVIEW_FILTERS = ['open', 'all', ...OVERVIEW_STATUSES] as const;
export type OverviewFilter = (typeof OVERVIEW_FILTERS)[number];

export const OVERVIEW_FILTER_LABELS: Record<OverviewFilter, string> = {
  open: 'Offen',
  all: 'Alle',
  ...OVERVIEW_STATUS_LABELS,
};

export const OVERVIEW_PAGE_SIZE = 25;

/** GET /backend/signature/envelopes: the query. */
export const overviewQuerySchema = z.object({
  status: z.enum(OVERVIEW_FILTERS).default('open'),
  q: z.string().trim().max(200, 'Der Suchbegriff ist zu lang (max. 200 Zeichen).').default(''),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type OverviewQuery = z.infer<typeof overviewQuerySchema>;

export const overviewEnvelopeSchema = z.object({
  id: z.string(),
  provider: z.enum(['builtin', 'docusign']),
  status: z.enum(OVERVIEW_STATUSES),
  matchId: z.string(),
  customer: z.string(),
  subject: z.string(),
  /** Null once a retention rule deleted the envelope's document: the envelope stays listed. */
  fileName: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  signers: z.array(
    z.object({
      id: z.string(),
      role: z.enum(RECIPIENT_ROLES),
      name: z.string(),
      email: z.string(),
      status: z.enum(RECIPIENT_STATUSES),
      /** Until when the signer's link works; null before they are invited. */
      linkExpiresAt: z.string().nullable(),
    }),
  ),
  lastEvent: z.object({ type: z.enum(ENVELOPE_EVENT_TYPES), at: z.string(), actor: z.string() }).nullable(),
  /** The user may remind, renew links and withdraw (creator or legal staff, built-in signing, open). */
  mayChange: z.boolean(),
  signedPdfAvailable: z.boolean(),
  /** The seal of a completed envelope; null for any other status. */
  seal: envelopeSealSchema.nullable(),
});
export type OverviewEnvelope = z.infer<typeof overviewEnvelopeSchema>;

export const envelopeOverviewSchema = z.object({
  envelopes: z.array(overviewEnvelopeSchema),
  /** How many match the filter and the search. */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Per filter, how many of the user's envelopes match the search. */
  counts: z.record(z.enum(OVERVIEW_FILTERS), z.number().int()),
});
export type EnvelopeOverview = z.infer<typeof envelopeOverviewSchema>;
