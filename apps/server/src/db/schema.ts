import type {
  ApprovalReason,
  ApprovalRules,
  ApprovalSendState,
  ApprovalStatus,
  DataList,
  DocumentClause,
  EnvelopeEventType,
  EnvelopeStatus,
  FormName,
  MatchFields,
  RecipientRole,
  RecipientStatus,
  ResolvedMatch,
  SealLevel,
  SendEnvelopeRequest,
  TemplateCheckProblem,
  TemplateMark,
} from '@vertragsgenerator/domain';
import type { ColumnType, Generated } from 'kysely';
import type { BatchesTable, BatchItemsTable } from './schema-batches.js';
import type { ClausesTable, ClauseVersionsTable } from './schema-clauses.js';
import type {
  CalendarFeedsTable,
  ContractEventsTable,
  ContractRecordsTable,
  ContractReminderSettingsTable,
  ContractRemindersTable,
  ContractTerms,
} from './schema-contracts.js';
import type {
  ReviewCommentsTable,
  ReviewReviewersTable,
  ReviewRoundsTable,
  ReviewSuggestionsTable,
  ReviewsTable,
} from './schema-reviews.js';

/** Table types of the query layer; the migrations under ./migrations are their source of truth. */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface UsersTable {
  email: string;
  name: string;
  permission: number | null;
  /** Tokens issued before this moment are refused, even ones that never opened a session. */
  signed_out_at: Timestamp | null;
  /** Team-Operations (migration 0009): a capability beside the permission level. */
  administrator: ColumnType<boolean, boolean | undefined, boolean>;
  last_sign_in_at: Timestamp | null;
  /** Administrative changes of this entry (migration 0010): optimistic locking in /verwaltung. */
  version: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  /** SHA-256 of the ID token: the token itself is never stored. */
  token_hash: string;
  email: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface IdpAccountsTable {
  email: string;
  name: string;
  password_hash: string;
}

export interface IdpSecretsTable {
  name: string;
  value: ColumnType<unknown, string, string>;
  created_at: CreatedAt;
}

export interface IdpPayloadsTable {
  model: string;
  id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: Timestamp | null;
  consumed_at: Timestamp | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  idp_accounts: IdpAccountsTable;
  idp_secrets: IdpSecretsTable;
  idp_payloads: IdpPayloadsTable;
  support_reports: SupportReportsTable;
  outgoing_mail: OutgoingMailTable;
  matches: MatchesTable;
  recent_matches: RecentMatchesTable;
  crm_match_cache: CrmMatchCacheTable;
  documents: DocumentsTable;
  document_versions: DocumentVersionsTable;
  envelopes: EnvelopesTable;
  envelope_recipients: EnvelopeRecipientsTable;
  envelope_events: EnvelopeEventsTable;
  approval_rules: ApprovalRulesTable;
  approval_requests: ApprovalRequestsTable;
  approval_decisions: ApprovalDecisionsTable;
  audit_entries: AuditEntriesTable;
  access_requests: AccessRequestsTable;
  seal_certificate: SealCertificateTable;
  signing_link_key: SigningLinkKeyTable;
  sealed_pdf_versions: SealedPdfVersionsTable;
  signer_codes: SignerCodesTable;
  reviews: ReviewsTable;
  review_rounds: ReviewRoundsTable;
  review_reviewers: ReviewReviewersTable;
  reviewer_codes: SignerCodesTable;
  review_suggestions: ReviewSuggestionsTable;
  review_comments: ReviewCommentsTable;
  countersignature_settings: CountersignatureSettingsTable;
  countersignature_order: CountersignatureOrderTable;
  templates: TemplatesTable;
  template_versions: TemplateVersionsTable;
  clauses: ClausesTable;
  clause_versions: ClauseVersionsTable;
  retention_rules: RetentionRulesTable;
  legal_holds: LegalHoldsTable;
  deletion_records: DeletionRecordsTable;
  retention_runs: RetentionRunsTable;
  retention_lease: RetentionLeaseTable;
  document_reads: DocumentReadsTable;
  person_exports: PersonExportsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  api_clients: ApiClientsTable;
  contract_records: ContractRecordsTable;
  contract_events: ContractEventsTable;
  contract_reminder_settings: ContractReminderSettingsTable;
  contract_reminders: ContractRemindersTable;
  calendar_feeds: CalendarFeedsTable;
  batches: BatchesTable;
  batch_items: BatchItemsTable;
}

/** A template file of the catalogue and the version documents are rendered from (migration 0013). */
export interface TemplatesTable {
  name: string;
  published_version: number | null;
}

/** The versions of a template (migration 0013): content and check results never change. */
export interface TemplateVersionsTable {
  template: string;
  version: number;
  content: ColumnType<Uint8Array, Uint8Array, never>;
  sha256: string;
  size: number;
  comment: string;
  created_by: string;
  created_at: CreatedAt;
  problems: ColumnType<TemplateCheckProblem[], string, never>;
  published_at: Date | null;
  published_by: string | null;
  publish_comment: string | null;
  /** Paragraphs marked „Änderung braucht Freigabe“ (migration 0035). */
  marks: ColumnType<TemplateMark[], string | undefined, string>;
}

/** The key signers' link tokens are derived from (migration 0012): one row. */
export interface SigningLinkKeyTable {
  id: ColumnType<number, number | undefined, never>;
  key: Uint8Array;
  created_at: CreatedAt;
}

/** The server's self-signed seal, one row at most (migration 0011). */
export interface SealCertificateTable {
  id: ColumnType<number, number | undefined, never>;
  p12: Uint8Array;
  passphrase: string;
  fingerprint: string;
  created_at: CreatedAt;
}

/** Access requests from /login (migration 0010). */
export interface AccessRequestsTable {
  id: Generated<string>;
  email: string;
  name: string;
  message: string | null;
  requested_at: CreatedAt;
  status: ColumnType<'open' | 'granted' | 'declined', 'open' | undefined, 'granted' | 'declined'>;
  decided_by: string | null;
  decided_at: Timestamp | null;
  decision: string | null;
}

/** Append-only log of administrative changes (migration 0009). */
export interface AuditEntriesTable {
  id: Generated<string>;
  at: CreatedAt;
  actor: string;
  action: string;
  subject: string;
  old_value: string | null;
  new_value: string | null;
}

export interface SupportReportsTable {
  id: Generated<number>;
  reporter_email: string;
  reporter_name: string;
  subject: string;
  body: string;
  match_id: string | null;
  created_at: CreatedAt;
}

/** The mail outbox (migration 0005): every e-mail is stored before it is sent. */
export interface OutgoingMailTable {
  id: Generated<string>;
  /** Null: the support mailbox. */
  recipient: string | null;
  reply_to: string | null;
  subject: string;
  body: string;
  attachments: ColumnType<
    { filename: string; contentType: string; content: string }[],
    string | undefined,
    string
  >;
  reference: string | null;
  /** The text holds a one-time secret: replaced by a note once delivered (migration 0017). */
  secret: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  sent_at: Timestamp | null;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_error: string | null;
}

/** The built-in match store, filled by the import CLI and the demo data. */
export interface MatchesTable {
  match_id: string;
  /**
   * The match fields (packages/domain/src/match.ts) as imported, fallback fields included: resolving them
   * happens on lookup.
   */
  record: ColumnType<MatchFields, string, string>;
  imported_at: CreatedAt;
  updated_at: Timestamp;
}

/** The match each user loaded most recently (`POST /backend/match`). */
export interface RecentMatchesTable {
  email: string;
  match_id: string;
  loaded_at: Timestamp;
}

/** The last answer of an external CRM per match, standing in while the CRM is down (CRM_CACHE_SECONDS). */
export interface CrmMatchCacheTable {
  match_id: string;
  record: ColumnType<Omit<ResolvedMatch, 'matchId'>, string, string>;
  fetched_at: Timestamp;
}

export type DocumentStatus = 'rendering' | 'ready' | 'failed';

/**
 * Every generated document: the match's document history. The row is written before
 * rendering, so what a user submitted is kept even when rendering fails.
 */
export interface DocumentsTable {
  id: Generated<string>;
  match_id: string;
  /** The catalogue key. */
  doc_key: string;
  form: FormName;
  /** E-mail of the user who generated it. */
  created_by: string;
  created_at: CreatedAt;
  status: DocumentStatus;
  error: string | null;
  file_name: string;
  /** The dataList as validated for the key. */
  data: ColumnType<DataList, string, string>;
  /** Null until the renderer has read the template. */
  template_sha256: string | null;
  /** SHA-256 of the template data: the match values, dataList, company and signatory it was made of. */
  data_sha256: string;
  /** The template version it was rendered from (migration 0013); null for documents made before. */
  template_version: ColumnType<number | null, number | null | undefined, number | null>;
  /** The deal's values the contract record reads (migration 0027); null for documents made before. */
  terms: ColumnType<ContractTerms | null, string | null | undefined, string | null>;
  /** The deal of a batch it was made for (migration 0033): unique, so a deal gets one document. */
  batch_item_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The clauses it holds, each with its version and variant (migration 0037); null for documents made before. */
  clauses: ColumnType<DocumentClause[] | null, string | null | undefined, string | null>;
}

/** The files of a document: version 1 is the rendered output, later versions are edits. */
export interface DocumentVersionsTable {
  document_id: string;
  version: number;
  content: ColumnType<Uint8Array, Uint8Array, never>;
  sha256: string;
  size: number;
  created_by: string;
  created_at: CreatedAt;
}

/** E-signature envelopes (migration 0006); see there for the meaning of the columns. */
export interface EnvelopesTable {
  id: Generated<string>;
  document_id: string;
  document_version: number;
  document_sha256: string;
  match_id: string;
  doc_key: string;
  provider: 'builtin' | 'docusign';
  external_id: string | null;
  status: EnvelopeStatus;
  /** The provider's own last status word (DocuSign: `delivered`, …). */
  provider_status: string | null;
  subject: string;
  message: string;
  sender_name: string;
  sender_email: string;
  created_by: string;
  request_key: string | null;
  error: string | null;
  certificate: Uint8Array | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  completed_at: Timestamp | null;
  /** The sealed PDF of a completed envelope (migration 0011), and its SHA-256 for Prüfen. */
  sealed_pdf: Uint8Array | null;
  sealed_sha256: string | null;
  /** When the next sealing attempt may start; null: nothing to seal. */
  seal_due_at: Timestamp | null;
  seal_attempts: ColumnType<number, number | undefined, number>;
  seal_error: string | null;
  /** The PAdES level the sealed PDF reached; null before sealing and for DocuSign's document (migration 0015). */
  seal_level: SealLevel | null;
  /** When the B-LTA document timestamp is renewed by the archive run; null: nothing to renew (migration 0015). */
  seal_renew_at: Timestamp | null;
  /** The customer's name from the match when the envelope was made (migration 0012). */
  customer: ColumnType<string, string | undefined, string>;
  /** Its signers confirm a code mailed to them, as far as SIGNING_OTP leaves it to the envelope (migration 0014). */
  signer_code: ColumnType<boolean, boolean | undefined, boolean>;
  /** When a retention rule or an erase deleted its files, and which rule (migration 0021); its events stay. */
  files_deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  files_deleted_rule: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A signer's code and its confirmation for one link (migration 0014); see there. */
export interface SignerCodesTable {
  recipient_id: string;
  link_sha256: string;
  code_hmac: string | null;
  code_sent_at: Timestamp | null;
  code_expires_at: Timestamp | null;
  failed_attempts: ColumnType<number, number | undefined, number>;
  locked_until: Timestamp | null;
  verified_at: Timestamp | null;
}

export interface EnvelopeRecipientsTable {
  id: Generated<string>;
  envelope_id: string;
  position: number;
  role: RecipientRole;
  name: string;
  email: string;
  routing_order: number;
  status: RecipientStatus;
  token_sha256: string | null;
  token_expires_at: Timestamp | null;
  signed_at: Timestamp | null;
  typed_name: string | null;
  drawn_signature: Uint8Array | null;
  signed_ip: string | null;
  signed_user_agent: string | null;
  decline_reason: string | null;
  /** The generation the link token was derived with; null: a random token (migration 0012). */
  link_generation: number | null;
  /** When the next automatic reminder is due; null: none. */
  reminder_due_at: Timestamp | null;
  /** The countersignatory's function (role `Firma`, migration 0016); null for everyone else. */
  signatory_function: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the signer's name and address were replaced on request (migration 0021). */
  erased_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** The administrators' switch per document family: sending without a countersignatory (migration 0016). */
export interface CountersignatureSettingsTable {
  family: string;
  without_allowed: boolean;
  changed_by: string;
  changed_at: ColumnType<Date, Date | undefined, Date>;
}

/** Templates whose countersignatory signs first (migration 0024); a template without a row: last. */
export interface CountersignatureOrderTable {
  template: string;
  first: boolean;
  changed_by: string;
  changed_at: ColumnType<Date, Date | undefined, Date>;
}

export interface EnvelopeEventsTable {
  id: Generated<string>;
  envelope_id: string;
  recipient_id: string | null;
  type: EnvelopeEventType;
  actor: string;
  ip: string | null;
  user_agent: string | null;
  detail: string | null;
  at: CreatedAt;
}

/** The SHA-256 of every sealed PDF an envelope had, its renewals included (migration 0015). */
export interface SealedPdfVersionsTable {
  sha256: string;
  envelope_id: string;
  level: SealLevel;
  sealed_at: ColumnType<Date, Date | undefined, never>;
}

/** A receiver of webhooks registered by an administrator (migration 0019). */
export interface WebhookEndpointsTable {
  id: Generated<string>;
  url: string;
  description: Generated<string>;
  events: string[];
  /** `whsec_` and the base64 key every delivery is signed with. */
  secret: string;
  active: Generated<boolean>;
  failing_since: Date | null;
  created_by: string;
  created_at: Generated<Date>;
}

/** A fact to report, stored in the transaction of the fact (migration 0019). */
export interface WebhookEventsTable {
  id: Generated<string>;
  type: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
}

/** The webhook outbox: one event for one endpoint (migration 0019). */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  event_id: string;
  /**
   * Null for a delivery to the CRM (`target` 'crm', migration 0022); what reads endpoint deliveries
   * joins them to their endpoint, so it never sees a null here.
   */
  endpoint_id: ColumnType<string, string | null, string | null>;
  /** `endpoint` (a registered receiver) or `crm` (the CRM's write-back), migration 0022. */
  target: ColumnType<'endpoint' | 'crm', 'endpoint' | 'crm' | undefined, never>;
  /** The steps of a CRM write-back already done, e.g. the id of the file uploaded (migration 0022). */
  progress: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  ordering_key: string | null;
  status: ColumnType<
    'pending' | 'delivered' | 'failed',
    'pending' | undefined,
    'pending' | 'delivered' | 'failed'
  >;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  first_attempt_at: Date | null;
  delivered_at: Date | null;
  last_error: string | null;
  created_at: Generated<Date>;
  /** The lease of the attempt under way (migration 0026); „Erneut senden“ takes it away. */
  lease: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One attempt at a webhook delivery and the receiver's answer (migration 0019). */
export interface WebhookAttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  at: Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** Systems that call the API with a token of their own (migration 0020). */
export interface ApiClientsTable {
  id: string;
  name: string;
  permission: number;
  /** SHA-256 of the token: the token itself is never stored. */
  token_hash: string;
  token_hint: string;
  created_by: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_by: string | null;
}

/** The administrators' retention periods (migration 0021); a null period: never deleted by a rule. */
export interface RetentionRulesTable {
  rule: string;
  period_value: number | null;
  period_unit: 'days' | 'months' | 'years' | null;
  changed_by: string | null;
  changed_at: Timestamp | null;
}

/** A legal hold stops every deletion for its match until lifted (migration 0021). */
export interface LegalHoldsTable {
  id: Generated<string>;
  match_id: string;
  reason: string;
  placed_by: string;
  placed_at: Timestamp;
  lifted_by: string | null;
  lifted_at: Timestamp | null;
}

/** What stays of something a rule or an erase deleted (migration 0021). */
export interface DeletionRecordsTable {
  id: Generated<string>;
  at: Timestamp;
  rule: string;
  kind: string;
  subject_id: string;
  match_id: string | null;
  doc_key: string | null;
  sha256: string | null;
}

/** The deletion runs (migration 0021): what each deleted, per rule. */
export interface RetentionRunsTable {
  id: Generated<string>;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  holder: string;
  deleted: ColumnType<Record<string, number>, string | undefined, string>;
  error: string | null;
}

/** One row at most: which replica runs the deletion, until when (migration 0021). */
export interface RetentionLeaseTable {
  id: number;
  holder: string;
  until: Timestamp;
}

/** Every opening, download or check of a stored file (migration 0021). */
export interface DocumentReadsTable {
  id: Generated<string>;
  at: Timestamp;
  actor: string;
  kind: string;
  document_id: string | null;
  envelope_id: string | null;
  version: number | null;
  ip: string | null;
}

/** An Art. 15 export, kept until its download expires (migration 0021). */
export interface PersonExportsTable {
  id: Generated<string>;
  person: string;
  created_by: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  content: Uint8Array;
}

/** Freigabe: the one set of approval rules, row 1 (migration 0018). */
export interface ApprovalRulesTable {
  id: number;
  rules: ColumnType<ApprovalRules, string, string>;
  version: ColumnType<number, number | undefined, number>;
  changed_by: string | null;
  changed_at: Timestamp | null;
}

/** An approval request for one version of one document (migration 0018); see there. */
export interface ApprovalRequestsTable {
  id: Generated<string>;
  envelope_id: string | null;
  document_id: string;
  document_version: number;
  document_sha256: string;
  match_id: string;
  doc_key: string;
  file_name: string;
  customer: ColumnType<string, string | undefined, string>;
  requested_by: string;
  requested_by_name: string;
  requested_at: CreatedAt;
  reasons: ColumnType<ApprovalReason[], string, string>;
  rules: ColumnType<ApprovalRules, string, string>;
  escalates_at: Timestamp | null;
  /** When the next group in turn was mailed about the escalation; null: not yet. */
  escalation_mailed_at: Timestamp | null;
  send_request: ColumnType<SendEnvelopeRequest | null, string | null, string | null>;
  status: ApprovalStatus;
  void_reason: string | null;
  send_state: ApprovalSendState | null;
  send_due_at: Timestamp | null;
  send_attempts: ColumnType<number, number | undefined, number>;
  send_error: string | null;
  sent_at: Timestamp | null;
  /** Asked for as one deal of a batch (migration 0034): mailed and shown with the batch's others. */
  batch_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The one decision of an approval request (migration 0018). */
export interface ApprovalDecisionsTable {
  request_id: string;
  decision: 'approved' | 'declined';
  decided_by: string;
  decided_by_name: string;
  decided_at: CreatedAt;
  comment: string | null;
}
