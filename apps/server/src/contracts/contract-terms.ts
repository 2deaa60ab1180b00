import {
  type CalendarDate,
  type CatalogueEntry,
  type ContractKind,
  type ContractTerms,
  catalogueEntry,
  compareCalendarDates,
  isoDate,
  lastNoticeDay,
  type NoticeRule,
  type NoticeRuleSource,
  parseDate,
  readNoticeText,
} from '@vertragsgenerator/domain';
import type { ContractParty } from '../db/schema-contracts.js';

/** What a signed document says of its contract: the part of a record that its document decides. */
export interface ContractDraft {
  kind: ContractKind;
  company: string;
  partnerType: string;
  language: string;
  counterparty: string;
  customer: string;
  consultant: string;
  parties: ContractParty[];
  startDate: string | null;
  endDate: string | null;
  dateProblem: string | null;
  noticeText: string | null;
  noticeRule: NoticeRule | null;
  noticeRuleSource: NoticeRuleSource;
  noticeProblem: string | null;
  lastNoticeDay: string | null;
  rateRemote: string | null;
  rateOnsite: string | null;
  hoursPerWeek: string | null;
}

/** The kind of contract a catalogue entry makes; an offer makes none. */
export function contractKindOf(entry: CatalogueEntry): ContractKind | undefined {
  const { params } = entry;
  switch (params.family) {
    case 'contract':
      return params.contract === 'rv' ? 'rahmenvertrag' : 'einzelauftrag';
    case 'termination':
      return 'kuendigung';
    case 'agreement':
      return params.agreement === 'extension' ? 'verlaengerung' : 'zusatzvereinbarung';
    case 'offer':
      return undefined;
  }
}

export function calendarDateOfIso(iso: string): CalendarDate {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

const text = (value: string | number | undefined): string =>
  value === undefined ? '' : String(value).trim();

/**
 * The notice text that binds the counterparty: the customer's own where the CRM has one; a project
 * partner's contract reads the general one first. Each falls back to the other, as the match's fields do.
 */
function noticeTextOf(terms: ContractTerms, partnerType: string): string {
  const customer = text(terms.kuendigungsfristKunde);
  const general = text(terms.kuendigungsfrist);
  return partnerType === 'k' ? customer || general : general || customer;
}

/** The notice rule and its last day, from a rule (read or set by hand) and the end date. */
export function noticeDeadline(rule: NoticeRule | null, endDate: string | null): string | null {
  return rule && endDate ? isoDate(lastNoticeDay(rule, calendarDateOfIso(endDate))) : null;
}

/** Our companies' names by code, as their letterheads print them (config/companies.json). */
export type CompanyNames = Readonly<Partial<Record<string, { name: string }>>>;

/**
 * Reads a signed document's contract from its catalogue key and the deal's values it was made of.
 * Undefined for a key that makes no contract (an offer) or that the catalogue no longer knows.
 * Our side is the company whose letterhead the document carries — the key decides it, whatever the
 * CRM's "Vertragspartner" field says; that field stands in only for a company the names lack.
 */
export function contractDraftOf(
  docKey: string,
  terms: ContractTerms,
  companies: CompanyNames = {},
): ContractDraft | undefined {
  const entry = catalogueEntry(docKey);
  const kind = entry && contractKindOf(entry);
  if (!entry || !kind) return undefined;
  const { company, partner, language } = entry.params;
  const customer = text(terms.kunde);
  const partnerName =
    text(terms.ppGesellschaft) || `${text(terms.candidateFirstName)} ${text(terms.candidateLastName)}`.trim();
  const counterparty = partner === 'k' ? customer : partnerName;
  const ourSide =
    companies[company]?.name ?? text(partner === 'k' ? terms.vertragspartnerKunde : terms.vertragspartnerPP);
  const parties: ContractParty[] = [
    ...(ourSide ? [{ role: 'Gesellschaft', name: ourSide }] : []),
    { role: partner === 'k' ? 'Kunde' : 'Projektpartner', name: counterparty },
  ];
  const start = parseDate(terms.startdatum);
  const end = parseDate(terms.enddatum);
  const dateProblem = [
    terms.startdatum !== undefined && !start
      ? `Der Beginn „${text(terms.startdatum)}“ ist kein gültiges Datum.`
      : '',
    terms.enddatum !== undefined && !end ? `Das Ende „${text(terms.enddatum)}“ ist kein gültiges Datum.` : '',
    start && end && compareCalendarDates(end, start) < 0 ? 'Das Ende liegt vor dem Beginn.' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const noticeText = noticeTextOf(terms, partner);
  const reading = noticeText ? readNoticeText(noticeText) : undefined;
  const noticeRule = reading?.readable ? reading.rule : null;
  const endDate = end ? isoDate(end) : null;
  return {
    kind,
    company,
    partnerType: partner,
    language,
    counterparty,
    customer,
    consultant: text(terms.beraterJob),
    parties,
    startDate: start ? isoDate(start) : null,
    endDate,
    dateProblem: dateProblem || null,
    noticeText: noticeText || null,
    noticeRule,
    noticeRuleSource: !reading ? 'missing' : reading.readable ? 'read' : 'unreadable',
    noticeProblem: reading && !reading.readable ? reading.reason : null,
    lastNoticeDay: noticeDeadline(noticeRule, endDate),
    rateRemote: text(partner === 'k' ? terms.vk : terms.ek) || null,
    rateOnsite: text(partner === 'k' ? terms.vk2 : terms.ek2) || null,
    hoursPerWeek: text(terms.stundenProWoche) || null,
  };
}
