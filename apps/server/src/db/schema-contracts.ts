import type {
  ContractKind,
  ContractRelation,
  ContractTerms,
  NoticeRule,
  NoticeRuleSource,
} from '@vertragsgenerator/domain';
import type { ColumnType, Generated } from 'kysely';

/** Table types of the running contracts (migration 0027); see there for the meaning of the columns. */

export interface ContractRecordsTable {
  id: Generated<string>;
  source_kind: 'envelope' | 'signed_elsewhere';
  envelope_id: string | null;
  document_id: string;
  document_version: number;
  match_id: string;
  doc_key: string;
  kind: ContractKind;
  company: string;
  partner_type: string;
  language: string;
  counterparty: string;
  customer: string;
  consultant: string;
  parties: ColumnType<ContractParty[], string, string>;
  /** Where the dates and notice text came from: the document's own terms, the match as stored, or nowhere. */
  terms_source: 'document' | 'match' | 'none';
  start_date: string | null;
  end_date: string | null;
  /** Why a date the document names could not be read (German); a record without a readable end is not open-ended. */
  date_problem: string | null;
  notice_text: string | null;
  notice_rule: ColumnType<NoticeRule | null, string | null, string | null>;
  notice_rule_source: NoticeRuleSource;
  notice_problem: string | null;
  last_notice_day: string | null;
  /** The rates and hours per week of the document's side as the deal wrote them (migration 0032). */
  rate_remote: string | null;
  rate_onsite: string | null;
  hours_per_week: string | null;
  parent_id: string | null;
  relation: ContractRelation | null;
  terminated_by: string | null;
  superseded_by: string | null;
  signed_at: ColumnType<Date, Date | string, Date | string>;
  signed_by: string | null;
  /** When its document was generated, and its envelope first sent (none for one signed elsewhere): its lead times. */
  generated_at: ColumnType<Date | null, Date | string | null | undefined, never>;
  first_sent_at: ColumnType<Date | null, Date | string | null | undefined, never>;
  signed_pdf: ColumnType<Uint8Array | null, Uint8Array | null | undefined, never>;
  signed_pdf_sha256: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface ContractParty {
  role: string;
  name: string;
}

export interface ContractEventsTable {
  id: Generated<string>;
  contract_id: string;
  type: string;
  actor: string;
  detail: string | null;
  at: ColumnType<Date, Date | string | undefined, never>;
}

export type { ContractTerms };

/** The administrators' reminder lead times per company (migration 0029); a company without a row keeps the defaults. */
export interface ContractReminderSettingsTable {
  company: string;
  notice_days: number;
  end_days: number;
  changed_by: string;
  changed_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Each reminder sent (migration 0029): unique per contract, deadline kind and day. `ended`: the end announced. */
export interface ContractRemindersTable {
  id: Generated<string>;
  contract_id: string;
  kind: 'notice' | 'end' | 'ended';
  day: string;
  sent_at: ColumnType<Date, Date | string | undefined, never>;
}

/** A user's calendar subscribe link (migration 0029): only the token's SHA-256. */
export interface CalendarFeedsTable {
  user_email: string;
  token_hash: string;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
