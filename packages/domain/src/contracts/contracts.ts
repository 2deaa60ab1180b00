import { z } from 'zod';
import { type CatalogueEntry, COMPANIES, PARTNER_TYPES } from '../documents/catalogue.js';
import { type AgreementDataList, type DataList, isExtension } from '../documents/data-lists.js';
import type { FieldValue, MatchField } from '../match.js';
import { noticeRuleSchema } from './notice-rule.js';

/**
 * Running contracts (`/vertraege`): every contract that was signed — a completed envelope, or a final
 * document legal marked as signed elsewhere — with its end and the last day to give notice.
 */

export const CONTRACT_KINDS = [
  'rahmenvertrag',
  'einzelauftrag',
  'verlaengerung',
  'zusatzvereinbarung',
  'kuendigung',
] as const;
export type ContractKind = (typeof CONTRACT_KINDS)[number];

export const CONTRACT_KIND_LABELS: Record<ContractKind, string> = {
  rahmenvertrag: 'Rahmenvertrag',
  einzelauftrag: 'Einzelauftrag',
  verlaengerung: 'Verlängerung',
  zusatzvereinbarung: 'Zusatzvereinbarung',
  kuendigung: 'Kündigung',
};

/**
 * What a record is now, on the day it is read: a status depends on the date, so it is computed when
 * read, never stored. `open_ended` (unbefristet) is a contract without an end date, not an error.
 */
export const CONTRACT_STATUSES = [
  'in_force',
  'ending_soon',
  'open_ended',
  'ended',
  'terminated',
  'superseded',
] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

export const CONTRACT_STATUS_LABELS: Record<ContractStatus, string> = {
  in_force: 'In Kraft',
  ending_soon: 'Endet bald',
  open_ended: 'Unbefristet',
  ended: 'Beendet',
  terminated: 'Gekündigt',
  superseded: 'Ersetzt',
};

/** A contract ends "soon" within this many days: the first reminder's default lead time. */
export const ENDING_SOON_DAYS = 60;

/** How a record's link to the record above it in its chain reads. */
export const CONTRACT_RELATIONS = ['under', 'changes', 'ends'] as const;
export type ContractRelation = (typeof CONTRACT_RELATIONS)[number];

export const CONTRACT_RELATION_LABELS: Record<ContractRelation, string> = {
  under: 'unter dem Rahmenvertrag',
  changes: 'ändert',
  ends: 'beendet',
};

export const CONTRACT_SORTS = ['end', 'notice', 'signed', 'customer', 'match'] as const;
export type ContractSort = (typeof CONTRACT_SORTS)[number];

export const CONTRACTS_PAGE_SIZE = 50;

const withinDays = z.coerce
  .number({ error: 'Bitte gib eine Zahl von Tagen an.' })
  .int('Bitte gib eine ganze Zahl von Tagen an.')
  .min(0, 'Die Zahl der Tage darf nicht negativ sein.')
  .max(3650, 'Höchstens 3650 Tage.')
  .optional();
const filterText = z.string().trim().max(200, 'Der Suchbegriff ist zu lang (max. 200 Zeichen).').default('');

/** GET /backend/contracts (and its exports): the filters, as the page keeps them in its address. */
export const contractsQuerySchema = z.object({
  q: filterText,
  company: z.enum(COMPANIES, { error: 'Diese Gesellschaft gibt es nicht.' }).optional(),
  customer: filterText,
  consultant: filterText,
  kind: z.enum(CONTRACT_KINDS, { error: 'Diese Vertragsart gibt es nicht.' }).optional(),
  status: z.enum(CONTRACT_STATUSES, { error: 'Diesen Status gibt es nicht.' }).optional(),
  /** The contract ends within this many days from today (ended ones excluded). */
  endsWithin: withinDays,
  /** The last day to give notice lies within this many days from today. */
  noticeWithin: withinDays,
  /** Only an Einzelauftrag that runs without a signed Rahmenvertrag. */
  withoutFramework: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  sort: z.enum(CONTRACT_SORTS, { error: 'Nach diesem Feld kann nicht sortiert werden.' }).default('end'),
  direction: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type ContractsQuery = z.infer<typeof contractsQuerySchema>;

/** Where a record's notice rule comes from: read from the text, set by legal, or none readable. */
export const NOTICE_RULE_SOURCES = ['read', 'manual', 'unreadable', 'missing'] as const;
export type NoticeRuleSource = (typeof NOTICE_RULE_SOURCES)[number];

export const contractRowSchema = z.object({
  id: z.string(),
  matchId: z.string(),
  kind: z.enum(CONTRACT_KINDS),
  status: z.enum(CONTRACT_STATUSES),
  company: z.enum(COMPANIES),
  partnerType: z.enum(PARTNER_TYPES),
  /** The other party: the customer (`k`) or the project partner's company (`pp`). */
  counterparty: z.string(),
  customer: z.string(),
  consultant: z.string(),
  /** ISO dates (YYYY-MM-DD) as the document says them; null where it says none or none readable. */
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  noticeText: z.string().nullable(),
  noticeRule: noticeRuleSchema.nullable(),
  noticeRuleSource: z.enum(NOTICE_RULE_SOURCES),
  lastNoticeDay: z.string().nullable(),
  signedAt: z.string(),
});
export type ContractRow = z.infer<typeof contractRowSchema>;

export const contractsPageSchema = z.object({
  rows: z.array(contractRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ContractsPage = z.infer<typeof contractsPageSchema>;

const chainEntrySchema = contractRowSchema.extend({
  /** How it relates to the entry above it; null at the top. */
  relation: z.enum(CONTRACT_RELATIONS).nullable(),
  depth: z.number().int(),
});

export const contractRecordSchema = contractRowSchema.extend({
  parties: z.array(z.object({ role: z.string(), name: z.string() })),
  /** Why the notice text could not be read, in German; null when it could. */
  noticeProblem: z.string().nullable(),
  /** Why a date of the document could not be read, or that its end lies before its start; null when fine. */
  dateProblem: z.string().nullable(),
  /**
   * Rates (VK for the customer, EK for the project partner) and hours per week as the deal wrote them,
   * moved by an extension that changes them; null where the document states none.
   */
  rates: z.object({
    remote: z.string().nullable(),
    onsite: z.string().nullable(),
    hoursPerWeek: z.string().nullable(),
  }),
  source: z.object({
    kind: z.enum(['envelope', 'signed_elsewhere']),
    documentId: z.string(),
    documentVersion: z.number().int(),
    fileName: z.string().nullable(),
    envelopeId: z.string().nullable(),
    /** Who signed, for a document signed elsewhere (as legal entered it). */
    signedBy: z.string().nullable(),
  }),
  /**
   * The clauses of the library its document holds, each with the version and variant it got; `outdated`
   * when a later version has been published since.
   */
  clauses: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      version: z.number().int(),
      variant: z.string(),
      outdated: z.boolean(),
    }),
  ),
  /** The negotiation with the counterparty before signing: its rounds (withdrawn ones left out); null: none. */
  negotiation: z.object({ rounds: z.number().int(), agreedAt: z.string().nullable() }).nullable(),
  /** The whole chain, top-down, this record included. */
  chain: z.array(chainEntrySchema),
  history: z.array(
    z.object({ at: z.string(), type: z.string(), actor: z.string(), detail: z.string().nullable() }),
  ),
  /** The reader may set the notice rule by hand (legal staff). */
  maySetNoticeRule: z.boolean(),
});
export type ContractRecord = z.infer<typeof contractRecordSchema>;

/** PUT /backend/contracts/:id/notice-rule: legal sets the rule a text could not be read into, or corrects one. */
export const noticeRuleChangeSchema = z.object({
  rule: noticeRuleSchema,
  reason: z
    .string({ error: 'Bitte gib einen Grund an.' })
    .trim()
    .min(3, 'Bitte gib einen Grund an (mindestens 3 Zeichen).')
    .max(500, 'Der Grund ist zu lang (höchstens 500 Zeichen).'),
});
export type NoticeRuleChange = z.infer<typeof noticeRuleChangeSchema>;

/** The headers of POST /backend/documents/:id/signed-elsewhere, whose body is the signed PDF. */
export const signedElsewhereSchema = z.object({
  signedOn: z.iso.date({ error: 'Bitte gib das Datum der Unterschrift an (JJJJ-MM-TT).' }),
  signedBy: z
    .string({ error: 'Bitte gib an, wer unterschrieben hat.' })
    .trim()
    .min(2, 'Bitte gib an, wer unterschrieben hat.')
    .max(300, 'Die Angabe ist zu lang (höchstens 300 Zeichen).'),
});
export type SignedElsewhere = z.infer<typeof signedElsewhereSchema>;

/**
 * The deal's values a document was made of that its contract record reads: kept with the document at
 * generation, so the record says what the document says even after the CRM changed.
 */
export const CONTRACT_TERM_FIELDS = [
  'startdatum',
  'enddatum',
  'kuendigungsfristKunde',
  'kuendigungsfrist',
  'kunde',
  'ansprechpartnerKunde',
  'ppGesellschaft',
  'candidateFirstName',
  'candidateLastName',
  'beraterJob',
  'vertragspartnerKunde',
  'vertragspartnerPP',
  'ek',
  'vk',
  'ek2',
  'vk2',
  'stundenProWoche',
] as const satisfies readonly MatchField[];
export type ContractTerms = Partial<Record<(typeof CONTRACT_TERM_FIELDS)[number], string | number>>;

/**
 * The terms a document states: the match's, and for an extension the new end and, where given, the new
 * rates of the document's side (VK for the customer, EK for the project partner) and hours per week.
 */
export function documentTermsOf(
  entry: CatalogueEntry,
  match: Partial<Record<MatchField, FieldValue>>,
  dataList: DataList,
): ContractTerms {
  const terms = contractTermsOf(match);
  if (!isExtension(entry)) return terms;
  const extension = dataList as AgreementDataList;
  const forCustomer = entry.params.partner === 'k';
  const set = (field: keyof ContractTerms, value: string | number | undefined) => {
    if (value !== undefined) terms[field] = value;
  };
  set('enddatum', extension.neuesEnde);
  set(forCustomer ? 'vk' : 'ek', extension.neuerSatzRemote);
  set(forCustomer ? 'vk2' : 'ek2', extension.neuerSatzOnsite);
  set('stundenProWoche', extension.neueStundenProWoche);
  return terms;
}

/** The terms of a match: its values of CONTRACT_TERM_FIELDS, blanks left out. */
export function contractTermsOf(match: Partial<Record<MatchField, FieldValue>>): ContractTerms {
  const terms: ContractTerms = {};
  for (const field of CONTRACT_TERM_FIELDS) {
    const value = match[field];
    if (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')) terms[field] = value;
  }
  return terms;
}
