import { type ContractTerms, contractTermsOf } from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { EventSink, ProductEvent } from '../shared/product-events.js';
import { linkIntoChain } from './contract-chain.js';
import { extendContract, extensionOf } from './contract-extension.js';
import { type CompanyNames, type ContractDraft, contractDraftOf } from './contract-terms.js';

type Executor = Kysely<Database>;

/** What a record is made of besides its document's terms. */
export interface RecordSource {
  sourceKind: 'envelope' | 'signed_elsewhere';
  envelopeId: string | null;
  documentId: string;
  documentVersion: number;
  matchId: string;
  docKey: string;
  signedAt: Date;
  signedBy: string | null;
  signedPdf?: { content: Uint8Array; sha256: string };
  /** Who made the record happen, for its history: the uploader, or empty for the signing itself. */
  actor: string;
}

/**
 * The terms a record reads: those the document was made with; for a document made before they were
 * kept, the match as the database holds it (the built-in store, or the CRM's last answer) — never a
 * call to the CRM, so the backfill runs the same at start with the CRM down.
 */
async function termsOf(
  trx: Executor,
  documentId: string,
  matchId: string,
): Promise<{ terms: ContractTerms; source: 'document' | 'match' | 'none' }> {
  const document = await trx
    .selectFrom('documents')
    .select('terms')
    .where('id', '=', documentId)
    .executeTakeFirst();
  if (document?.terms) return { terms: document.terms, source: 'document' };
  const stored =
    (await trx.selectFrom('matches').select('record').where('match_id', '=', matchId).executeTakeFirst()) ??
    (await trx
      .selectFrom('crm_match_cache')
      .select('record')
      .where('match_id', '=', matchId)
      .executeTakeFirst());
  if (!stored) return { terms: {}, source: 'none' };
  return { terms: contractTermsOf(stored.record), source: 'match' };
}

/** What recording needs besides the document: our companies' names, and where `contract.created` goes. */
export interface Recording {
  companies: CompanyNames;
  events?: EventSink<Executor>;
}

/**
 * Inserts the record of a signed document and links it into its chain, in the caller's transaction.
 * A second call for the same envelope or document version changes nothing (the unique indexes decide,
 * so two replicas recording at once make one record). Answers the new record's id, or undefined.
 */
export async function insertContractRecord(
  trx: Executor,
  source: RecordSource,
  { companies, events }: Recording,
): Promise<string | undefined> {
  const { terms, source: termsSource } = await termsOf(trx, source.documentId, source.matchId);
  const draft = contractDraftOf(source.docKey, terms, companies);
  if (!draft) return undefined;
  const inserted = await trx
    .insertInto('contract_records')
    .values({
      ...recordColumns(draft),
      source_kind: source.sourceKind,
      envelope_id: source.envelopeId,
      document_id: source.documentId,
      document_version: source.documentVersion,
      match_id: source.matchId,
      doc_key: source.docKey,
      terms_source: termsSource,
      signed_at: source.signedAt,
      signed_by: source.signedBy,
      generated_at: trx.selectFrom('documents').select('created_at').where('id', '=', source.documentId),
      first_sent_at: source.envelopeId
        ? trx
            .selectFrom('envelope_events')
            .select(({ fn }) => fn.min('at').as('at'))
            .where('envelope_id', '=', source.envelopeId)
            .where('type', '=', 'sent')
        : null,
      signed_pdf: source.signedPdf?.content ?? null,
      signed_pdf_sha256: source.signedPdf?.sha256 ?? null,
    })
    .onConflict((conflict) => conflict.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return undefined;
  const { terminated, extended } = await linkIntoChain(trx, {
    id: inserted.id,
    kind: draft.kind,
    matchId: source.matchId,
    company: draft.company,
    partnerType: draft.partnerType,
    counterparty: draft.counterparty,
    signedAt: source.signedAt,
  });
  await trx
    .insertInto('contract_events')
    .values([
      {
        contract_id: inserted.id,
        type: source.sourceKind === 'envelope' ? 'created' : 'signed_elsewhere',
        actor: source.actor,
        detail: source.signedBy,
      },
      ...(terminated
        ? [{ contract_id: terminated, type: 'terminated', actor: source.actor, detail: inserted.id }]
        : []),
    ])
    .execute();
  if (extended) {
    const extension = await extensionOf(trx, {
      id: inserted.id,
      documentId: source.documentId,
      endDate: draft.endDate,
      actor: source.actor,
    });
    await extendContract(trx, extended, extension);
  }
  await events?.record({ kind: 'contract.event', contractId: inserted.id, type: 'created' }, trx);
  return inserted.id;
}

function recordColumns(draft: ContractDraft) {
  return {
    kind: draft.kind,
    company: draft.company,
    partner_type: draft.partnerType,
    language: draft.language,
    counterparty: draft.counterparty,
    customer: draft.customer,
    consultant: draft.consultant,
    parties: JSON.stringify(draft.parties),
    start_date: draft.startDate,
    end_date: draft.endDate,
    date_problem: draft.dateProblem,
    notice_text: draft.noticeText,
    notice_rule: draft.noticeRule ? JSON.stringify(draft.noticeRule) : null,
    notice_rule_source: draft.noticeRuleSource,
    notice_problem: draft.noticeProblem,
    last_notice_day: draft.lastNoticeDay,
    rate_remote: draft.rateRemote,
    rate_onsite: draft.rateOnsite,
    hours_per_week: draft.hoursPerWeek,
  };
}

/** A completed envelope's record source, or undefined while it is not completed. */
async function envelopeSource(trx: Executor, envelopeId: string): Promise<RecordSource | undefined> {
  const envelope = await trx
    .selectFrom('envelopes')
    .select(['id', 'document_id', 'document_version', 'match_id', 'doc_key', 'completed_at', 'status'])
    .where('id', '=', envelopeId)
    .executeTakeFirst();
  if (envelope?.status !== 'completed' || !envelope.completed_at) return undefined;
  return {
    sourceKind: 'envelope',
    envelopeId: envelope.id,
    documentId: envelope.document_id,
    documentVersion: envelope.document_version,
    matchId: envelope.match_id,
    docKey: envelope.doc_key,
    signedAt: envelope.completed_at,
    signedBy: null,
    actor: '',
  };
}

/** How many completed envelopes one sweep records at most, each in a transaction of its own. */
const SWEEP_BATCH = 200;

/**
 * Makes the contract records of completed envelopes. As an event sink it records an envelope in the
 * transaction that completes it (built-in signing) or that stores its sealed PDF (DocuSign, whose
 * completion comes with its document); `recordMissing` finds any completed envelope still without a
 * record — those completed before records existed (the backfill at start) and any a failure skipped.
 */
export class ContractRecorder implements EventSink<Executor> {
  constructor(
    private readonly db: Db,
    /** Our companies' names, and where `contract.created` goes (the webhooks), in the same transaction. */
    private readonly recording: Recording,
  ) {}

  async record(event: ProductEvent, trx: Executor): Promise<void> {
    const completes =
      (event.kind === 'envelope.event' && event.type === 'completed') || event.kind === 'envelope.sealed';
    if (!completes) return;
    const source = await envelopeSource(trx, event.envelopeId);
    if (source) await insertContractRecord(trx, source, this.recording);
  }

  /** Records completed envelopes without a record, oldest first so chains link as they were signed. */
  async recordMissing(): Promise<number> {
    let recorded = 0;
    for (;;) {
      const missing = await this.db
        .selectFrom('envelopes')
        .select('id')
        .where('status', '=', 'completed')
        .where('completed_at', 'is not', null)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('contract_records')
                .select(sql`1`.as('one'))
                .whereRef('envelope_id', '=', 'envelopes.id'),
            ),
          ),
        )
        // An envelope whose key makes no contract is looked at once per sweep and skipped.
        .orderBy('completed_at')
        .orderBy('id')
        .limit(SWEEP_BATCH)
        .execute();
      let made = 0;
      for (const { id } of missing) {
        const created = await this.db.transaction().execute(async (trx) => {
          const source = await envelopeSource(trx, id);
          return source && insertContractRecord(trx, source, this.recording);
        });
        if (created) made++;
      }
      recorded += made;
      // Stop when a batch made nothing new: what is left makes no record (no contract key).
      if (missing.length < SWEEP_BATCH || made === 0) return recorded;
    }
  }
}
