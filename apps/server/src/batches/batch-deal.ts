import {
  type ApprovalReason,
  type ApprovalRules,
  approvalReasonText,
  catalogueEntry,
  documentTermsOf,
  type EsignatureDataList,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { BatchApprovals, BatchDealApproval } from '../approvals/batch-approvals.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { BatchesTable, BatchItemsTable } from '../db/schema-batches.js';
import type { DocumentGenerator, GeneratedDocument } from '../documents/document-generator.js';
import { MatchSourceUnavailableError, MatchUnreadableError } from '../matches/match-source.js';
import { HttpError } from '../shared/http-error.js';
import { sha256Hex } from '../shared/sha256.js';
import { ApprovalRequiredProblem } from '../signature/approval-gate.js';
import { SignatureProviderError } from '../signature/signature-provider.js';
import { EnvelopeStateProblem } from '../signature/signing-problems.js';
import { type CompanyData, templateDataFor } from '../templates/companies.js';
import { RendererUnavailableError, TemplateError } from '../templates/renderer.js';
import { approvalReasonsOf, checkDeal } from './batch-check.js';
import { type BatchEnd, lockBatch } from './batch-end.js';
import { type BatchEnvelopes, type DealEnvelope, starterActor } from './batch-envelopes.js';

type Executor = Kysely<Database>;
/** A deal as the runner leased it. */
export type LeasedItem = Selectable<BatchItemsTable>;
/** What a chunk's deals need of their batch. */
export type ChunkBatch = Pick<
  Selectable<BatchesTable>,
  'doc_key' | 'created_by' | 'created_by_name' | 'countersignatory' | 'send_message'
>;

export interface BatchDealDeps {
  db: Db;
  companyData: CompanyData;
  generator: DocumentGenerator;
  /** What happens once, when a batch's last deal is through. */
  end: BatchEnd;
  /** E-signature contracts: each deal's envelope, sent or held for Freigabe. */
  envelopes: BatchEnvelopes;
  /** The deals that need Freigabe: asked for as one grouped request per batch. */
  approvals: BatchApprovals;
}

/**
 * One leased deal of a batch: checked again at its turn, its document made (or found made), for an
 * e-signature contract its envelope sent or held for Freigabe, and its outcome recorded — only while the
 * lease is still this run's, and in the transaction that also asks for its Freigabe or sends it.
 */
export class BatchDeal {
  constructor(private readonly deps: BatchDealDeps) {}

  /** One deal: checked again, its document made (or found made), and its outcome recorded. */
  async work(
    item: LeasedItem,
    looked: ResolvedMatch | undefined | MatchUnreadableError | Error,
    batch: ChunkBatch | undefined,
    rules: ApprovalRules,
  ): Promise<boolean> {
    const entry = batch && catalogueEntry(batch.doc_key);
    if (!batch || !entry) return this.fail(item, 'Dieses Dokument gibt es nicht mehr im Katalog.');
    if (looked instanceof MatchUnreadableError) return this.fail(item, looked.userMessage);
    if (looked instanceof MatchSourceUnavailableError)
      return this.fail(
        item,
        `Das CRM war nicht erreichbar (${looked.userMessage ?? looked.message}). Bitte „Fehlgeschlagene erneut versuchen“, wenn es wieder antwortet.`,
      );
    if (looked instanceof Error) throw looked;
    const match = looked;
    if (!match) return this.fail(item, 'Diesen Match gibt es im CRM nicht mehr.');
    const deal = checkDeal(entry, match, item.values, this.deps.companyData);
    if ('reason' in deal) return this.fail(item, `Seit der Prüfung im CRM geändert: ${deal.reason}`);
    const reasons = approvalReasonsOf(entry, match, deal.dataList, rules);
    const data = templateDataFor(entry, match, deal.dataList, this.deps.companyData, new Date());
    let generated: GeneratedDocument;
    try {
      generated = await this.deps.generator.generate({
        entry,
        matchId: match.matchId,
        dataList: deal.dataList,
        data,
        match,
        terms: documentTermsOf(entry, match, deal.dataList),
        createdBy: batch.created_by,
        batchItemId: item.id,
      });
    } catch (error) {
      if (error instanceof TemplateError)
        return this.fail(item, `Die Vorlage ${error.templateFile} ist fehlerhaft; bitte melde das Problem.`);
      if (error instanceof RendererUnavailableError)
        return this.fail(item, 'Der Dokumentdienst war ausgelastet. Bitte erneut versuchen.');
      throw error;
    }
    const document = {
      documentId: generated.id,
      documentSha256: sha256Hex(generated.content),
      fileName: generated.fileName,
      customer: typeof data.kunde === 'string' ? data.kunde : '',
    };
    if (entry.form !== 'docusign') {
      const approval = reasons.length > 0 ? { ...document, envelopeId: null, sendRequest: null } : undefined;
      return this.settle(item, batch, rules, { documentId: generated.id, reasons, approval });
    }
    const envelope = await this.deps.envelopes.draft(
      item,
      batch,
      entry,
      { countersignatory: batch.countersignatory, message: batch.send_message ?? '' },
      generated,
      deal.dataList as EsignatureDataList,
      data,
    );
    const held = { ...document, envelopeId: envelope.envelopeId, sendRequest: envelope.sendRequest };
    if (reasons.length > 0) return this.settle(item, batch, rules, { ...held, reasons, approval: held });
    return this.send(item, batch, rules, envelope, held);
  }

  /**
   * Sends a deal's envelope; its outcome is recorded in the send's transaction. What the gate says only
   * now (the rules or the deal changed since the check) holds it for Freigabe instead; a refusal
   * fails the deal with its German reason.
   */
  private async send(
    item: LeasedItem,
    batch: ChunkBatch,
    rules: ApprovalRules,
    envelope: DealEnvelope,
    held: Omit<BatchDealApproval, 'batchId' | 'docKey' | 'matchId' | 'reasons'>,
  ): Promise<boolean> {
    let recorded = false;
    try {
      await this.deps.envelopes.send(envelope, batch.created_by, async (trx) => {
        recorded = await this.record(trx, item, {
          status: 'done',
          documentId: envelope.document.id,
          envelopeId: envelope.envelopeId,
        });
        if (recorded) await this.deps.envelopes.spreadInvitations(trx, item.batch_id, envelope.envelopeId);
      });
      return recorded;
    } catch (error) {
      if (error instanceof ApprovalRequiredProblem)
        return this.settle(item, batch, rules, { ...held, reasons: error.reasons, approval: held });
      if (error instanceof EnvelopeStateProblem) {
        // Sent before (by its sender view, or a try whose record another run took over): it is done.
        if (await this.deps.envelopes.wentOut(envelope.envelopeId))
          return this.settle(item, batch, rules, { ...held, reasons: [] });
        return this.fail(item, 'Der Umschlag dieses Deals wurde inzwischen verworfen und nicht versendet.');
      }
      if (error instanceof SignatureProviderError || (error instanceof HttpError && error.statusCode < 500))
        return this.fail(item, `Der Umschlag wurde nicht versendet: ${error.message}`);
      throw error;
    }
  }

  /**
   * Records a made deal: done, or waiting for Freigabe with its request (asked for in the same
   * transaction). A request nobody may decide fails the deal with why.
   */
  private async settle(
    item: LeasedItem,
    batch: ChunkBatch,
    rules: ApprovalRules,
    made: {
      documentId: string;
      envelopeId?: string | null;
      reasons: ApprovalReason[];
      approval?: Omit<BatchDealApproval, 'batchId' | 'docKey' | 'matchId' | 'reasons'>;
    },
  ): Promise<boolean> {
    const approval = made.reasons.length > 0 ? made.approval : undefined;
    try {
      return await this.deps.db.transaction().execute(async (trx) =>
        this.record(
          trx,
          item,
          {
            status: approval ? 'approval' : 'done',
            reason: approval ? made.reasons.map(approvalReasonText).join(' ') : item.reason,
            documentId: made.documentId,
            envelopeId: made.envelopeId ?? null,
          },
          approval &&
            (() =>
              this.deps.approvals.ask(
                trx,
                {
                  ...approval,
                  batchId: item.batch_id,
                  docKey: batch.doc_key,
                  matchId: item.match_id,
                  reasons: made.reasons,
                },
                rules,
                { email: batch.created_by, name: batch.created_by_name },
                starterActor(batch.created_by),
              )),
        ),
      );
    } catch (error) {
      if (error instanceof HttpError && error.statusCode < 500) return this.fail(item, error.message);
      throw error;
    }
  }

  /**
   * In the caller's transaction: the deal's outcome, if its lease is still this run's (else another run
   * took the deal over and records it), then `also` (its Freigabe request), then the batch's end.
   */
  private async record(
    trx: Executor,
    item: LeasedItem,
    outcome: {
      status: 'done' | 'approval';
      reason?: string | null;
      documentId: string;
      envelopeId: string | null;
    },
    also?: () => Promise<void>,
  ): Promise<boolean> {
    await lockBatch(trx, item.batch_id);
    const mine = await finishedUnderLease(trx, item, {
      status: outcome.status,
      reason: outcome.reason === undefined ? item.reason : outcome.reason,
      document_id: outcome.documentId,
      envelope_id: outcome.envelopeId,
      error: null,
    });
    if (!mine) return false;
    await also?.();
    await this.deps.end.finishIfDone(trx, item.batch_id);
    return true;
  }

  /** The deal failed with a German reason; the starter can try the failed again. */
  private async fail(item: LeasedItem, reason: string): Promise<false> {
    await this.deps.db.transaction().execute(async (trx) => {
      await lockBatch(trx, item.batch_id);
      if (await finishedUnderLease(trx, item, { status: 'failed', error: reason }))
        await this.deps.end.finishIfDone(trx, item.batch_id);
    });
    return false;
  }
}

/**
 * Writes a deal's outcome and gives its lease back, if the lease is still the one this run took: else the
 * lease ran out and another run took the deal over, and that run records it. Whether it was written.
 */
async function finishedUnderLease(
  trx: Executor,
  item: LeasedItem,
  outcome: Updateable<BatchItemsTable>,
): Promise<boolean> {
  const updated = await trx
    .updateTable('batch_items')
    .set({ ...outcome, lease: null, lease_until: null, finished_at: sql<Date>`now()` })
    .where('id', '=', item.id)
    .where('lease', '=', item.lease)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}
