import type { ColumnType, Generated } from 'kysely';

/** Table types of Negotiation (migration 0036); see there for the meaning of the columns. */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Moment = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface ReviewsTable {
  id: Generated<string>;
  document_id: string;
  state: 'open' | 'agreed' | 'withdrawn';
  language: 'de' | 'en';
  created_by: string;
  created_by_name: string;
  created_at: CreatedAt;
  agreed_at: Moment;
  agreed_by: ColumnType<string | null, string | null | undefined, string | null>;
  agreed_version: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ReviewRoundsTable {
  id: Generated<string>;
  review_id: string;
  number: number;
  state: 'sent' | 'returned' | 'withdrawn';
  message: string;
  due_date: string;
  sent_by: string;
  sent_by_name: string;
  sent_at: CreatedAt;
  sent_version: number;
  sent_sha256: string;
  returned_at: Moment;
  returned_by: ColumnType<string | null, string | null | undefined, string | null>;
  returned_via: ColumnType<
    'browser' | 'upload' | 'none' | null,
    'browser' | 'upload' | 'none' | null | undefined
  >;
  returned_version: ColumnType<number | null, number | null | undefined, number | null>;
  returned_sha256: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ReviewReviewersTable {
  id: Generated<string>;
  round_id: string;
  name: string;
  email: string;
  token_sha256: string;
  link_generation: number;
  token_expires_at: ColumnType<Date, Date | string, Date | string>;
  withdrawn_at: Moment;
  opened_at: Moment;
  reminded_at: Moment;
}

export interface ReviewSuggestionsTable {
  id: Generated<string>;
  round_id: string;
  position: number;
  change_id: string;
  kind: 'insert' | 'delete';
  text: string;
  context: string;
  author: string;
  made_at: ColumnType<Date, Date | string, never>;
  outcome: 'open' | 'accepted' | 'rejected';
  decided_by: ColumnType<string | null, string | null | undefined, string | null>;
  decided_at: Moment;
}

export interface ReviewCommentsTable {
  id: Generated<string>;
  review_id: string;
  round: number;
  parent_id: string | null;
  visibility: 'external' | 'internal';
  side: 'company' | 'counterparty';
  author_name: string;
  author_email: string;
  quote: string;
  text: string;
  created_at: CreatedAt;
}
