/**
 * Owns Freigabe of a batch (Serie): every deal that needs an approval gets its own request, as a single
 * document or envelope would, marked with its batch. The approvers hear of them once, when the batch's
 * run ends, and see them on `/freigaben` as one grouped request they approve whole or deal by deal. Each
 * deal keeps its own decision, four eyes and send: deciding is approval-requests.ts's.
 */
import {
  type ApprovalBatch,
  type ApprovalBatchGroup,
  type ApprovalBatchOutcome,
  type ApprovalList,
  type ApprovalListQuery,
  type ApprovalReason,
  type ApprovalRules,
  approvalReasonText,
  catalogueEntry,
  documentTitle,
  type SendEnvelopeRequest,
} from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import { HttpError, notFound } from '../shared/http-error.js';
import type { Actor, Executor } from '../signature/envelopes-repository.js';
import type { StaffMember } from '../users/users-repository.js';
import { addresseesOfNewRequest } from './approval-escalation.js';
import { newRequestColumns } from './approval-evaluation.js';
import { approvalBatchDecidedMail, approvalBatchRequestedMail } from './approval-mails.js';
import { decisionOf, type RequestRow, searchedFor } from './approval-queries.js';
import type { ApprovalRequests, ApprovalRequestsDeps } from './approval-requests.js';

/** One deal of a batch whose document (or envelope) needs an approval. */
export interface BatchDealApproval {
  batchId: string;
  /** E-signature contracts: the envelope held as a draft until approved; null for a Word document. */
  envelopeId: string | null;
  /** Sent in the starter's name once approved (envelopes only). */
  sendRequest: SendEnvelopeRequest | null;
  documentId: string;
  documentSha256: string;
  matchId: string;
  docKey: string;
  fileName: string;
  customer: string;
  reasons: ApprovalReason[];
}

/** The answer for a batch that is unknown, has no requests, or none the user may see. */
export const NO_BATCH = 'Diese Serie hat keine Freigabe-Anfragen, die du sehen darfst.';

/** The batches shown on one `/freigaben` (not paged: a batch is one line however many deals it has). */
const GROUPS_SHOWN = 50;
/** Reasons named in a group's line: the deals' margins differ, the kinds repeat. */
const GROUP_REASONS_SHOWN = 5;

const titleOf = (docKey: string) => {
  const entry = catalogueEntry(docKey);
  return entry ? documentTitle(entry) : docKey;
};

export class BatchApprovals {
  constructor(
    private readonly deps: ApprovalRequestsDeps,
    private readonly requests: ApprovalRequests,
  ) {}

  /**
   * In the transaction that records the deal's outcome: its request, without a mail (`mailBatch` mails
   * the batch's open deals once). A 422 `no_approver` when nobody but the starter may decide.
   */
  async ask(
    trx: Executor,
    deal: BatchDealApproval,
    rules: ApprovalRules,
    requester: { email: string; name: string },
    actor: Actor,
  ): Promise<void> {
    const addressees = await addresseesOfNewRequest(trx, rules, requester.email, 'diese Serie');
    await trx
      .insertInto('approval_requests')
      .values({
        envelope_id: deal.envelopeId,
        document_id: deal.documentId,
        ...newRequestColumns(
          { ...deal, documentVersion: 1 },
          rules,
          requester,
          new Date(),
          addressees.escalated,
        ),
        send_request: deal.sendRequest ? JSON.stringify(deal.sendRequest) : null,
        status: 'open',
        batch_id: deal.batchId,
      })
      .execute();
    if (deal.envelopeId)
      await this.deps.envelopes.addEvent(
        {
          envelopeId: deal.envelopeId,
          type: 'approval_requested',
          actor,
          detail: deal.reasons.map(approvalReasonText).join('; '),
        },
        trx,
      );
  }

  /** When a batch's run ended: one mail to each approver for all its deals that wait for them. */
  async mailBatch(trx: Executor, batchId: string): Promise<void> {
    const open = await trx
      .selectFrom('approval_requests')
      .select([
        'rules',
        'requested_by',
        'requested_by_name',
        'doc_key',
        sql<string>`count(*) over ()`.as('n'),
      ])
      .where('batch_id', '=', batchId)
      .where('status', '=', 'open')
      .limit(1)
      .executeTakeFirst();
    if (!open) return;
    let to: string[];
    try {
      ({ to } = await addresseesOfNewRequest(trx, open.rules, open.requested_by, 'diese Serie'));
    } catch (error) {
      // The deals failed with that reason already; nobody is left to mail.
      if (error instanceof HttpError) return;
      throw error;
    }
    await this.deps.outbox.enqueue(
      to.map((approver) =>
        approvalBatchRequestedMail(
          { batchId, title: titleOf(open.doc_key), deals: Number(open.n), ...open },
          approver,
          this.deps.publicUrl,
        ),
      ),
      trx,
    );
  }

  /** `/freigaben`: the single requests (paged) and the batches, each counted as one request. */
  async list(user: StaffMember, query: ApprovalListQuery): Promise<ApprovalList> {
    const single = await this.requests.queries.list(user, query);
    const groups = await this.groups(user, query);
    const open = groups.filter((group) => group.open > 0).length;
    const shown = groups.filter((group) =>
      query.status === 'open' ? group.open > 0 : query.status === 'decided' ? group.open === 0 : true,
    );
    return {
      ...single,
      batches: shown,
      counts: {
        open: single.counts.open + open,
        decided: single.counts.decided + groups.length - open,
        all: single.counts.all + groups.length,
      },
    };
  }

  /** One batch's deals, if the user sees any of them. */
  async batch(batchId: string, user: StaffMember): Promise<ApprovalBatch> {
    const group = (await this.groups(user, undefined, batchId))[0];
    if (!group) throw notFound(NO_BATCH);
    const rows = await this.deps.db
      .selectFrom('approval_requests')
      .leftJoin('approval_decisions', 'approval_decisions.request_id', 'approval_requests.id')
      .selectAll('approval_requests')
      .select([
        'approval_decisions.decision',
        'approval_decisions.decided_by',
        'approval_decisions.decided_by_name',
        'approval_decisions.decided_at',
        'approval_decisions.comment',
      ])
      .where('approval_requests.batch_id', '=', batchId)
      .orderBy('approval_requests.match_id')
      .execute();
    return {
      ...group,
      requests: rows.map((row) => this.requests.queries.toView(row, decisionOf(row), user)),
    };
  }

  /**
   * `Alle freigeben`: approves every open deal the user may decide, each as its own decision (its own
   * row lock, four eyes, version check), and tells the starter once. A deal decided meanwhile by
   * someone else, or void, is counted as skipped.
   */
  async approveAll(
    batchId: string,
    user: StaffMember,
    actor: Actor,
    comment: string | null,
  ): Promise<ApprovalBatchOutcome> {
    const before = await this.batch(batchId, user);
    const open = before.requests.filter((request) => request.status === 'open');
    const decidable = open.filter((request) => request.mayDecide);
    if (open.length > 0 && decidable.length === 0) {
      await this.requests.assertMayDecide(open[0]?.id ?? '', user);
    }
    let approved = 0;
    for (const request of decidable) {
      try {
        await this.requests.approve(request.id, user, actor, comment);
        approved++;
      } catch (error) {
        if (!(error instanceof HttpError) || error.statusCode !== 409) throw error;
      }
    }
    if (approved > 0) {
      await this.deps.outbox.enqueue(
        approvalBatchDecidedMail(
          {
            batchId,
            title: before.title,
            requested_by: before.requestedBy.email,
            requested_by_name: before.requestedBy.name,
          },
          { approved, by: user.email, byName: user.name, comment },
          this.deps.publicUrl,
        ),
      );
      this.deps.outbox.deliverSoon();
    }
    return { approved, skipped: open.length - approved, batch: await this.batch(batchId, user) };
  }

  /** The batches with requests the user sees, newest first; `batchId`: that one only. */
  private async groups(
    user: StaffMember,
    query?: Pick<ApprovalListQuery, 'q'>,
    batchId?: string,
  ): Promise<ApprovalBatchGroup[]> {
    let rows = this.deps.db
      .selectFrom('approval_requests')
      .innerJoin('batches', 'batches.id', 'approval_requests.batch_id')
      .leftJoin('approval_decisions', 'approval_decisions.request_id', 'approval_requests.id')
      .select([
        'batches.id as batch_id',
        'batches.doc_key',
        'batches.created_by',
        'batches.created_by_name',
        sql<Date>`max(approval_requests.requested_at)`.as('requested_at'),
        sql<string>`count(*)`.as('deals'),
        sql<string>`count(*) filter (where approval_requests.status = 'open')`.as('open'),
        sql<string>`count(*) filter (where approval_requests.status = 'approved')`.as('approved'),
        sql<string>`count(*) filter (where approval_requests.status = 'declined')`.as('declined'),
        sql<string>`count(*) filter (where approval_requests.status = 'void')`.as('void'),
        sql<ApprovalReason[][]>`jsonb_agg(distinct approval_requests.reasons)`.as('reasons'),
      ])
      .where(this.requests.queries.visibleTo(user))
      .groupBy(['batches.id', 'batches.doc_key', 'batches.created_by', 'batches.created_by_name']);
    if (batchId) rows = rows.where('batches.id', '=', batchId);
    // A batch's requests are asked in its starter's name: the requester is the batch's.
    if (query?.q) rows = rows.where(searchedFor(query.q));
    const groups = await rows.orderBy('requested_at', 'desc').limit(GROUPS_SHOWN).execute();
    if (groups.length === 0) return [];
    // A batch's deals share the starter and the rules: its first open deal says whether the user decides.
    const firstOpen = await this.deps.db
      .selectFrom('approval_requests')
      .distinctOn('batch_id')
      .select(['batch_id', 'rules', 'escalates_at', 'status', 'requested_by'])
      .where(
        'batch_id',
        'in',
        groups.map((group) => group.batch_id),
      )
      .where('status', '=', 'open')
      .orderBy('batch_id')
      .orderBy('escalates_at')
      .execute();
    const decides = new Map(
      firstOpen.map((row) => [
        row.batch_id,
        this.requests.queries.mayDecide(
          user,
          row as Pick<RequestRow, 'rules' | 'escalates_at' | 'status' | 'requested_by'>,
        ),
      ]),
    );
    return groups.map((group) => ({
      batchId: group.batch_id,
      title: titleOf(group.doc_key),
      requestedBy: { email: group.created_by, name: group.created_by_name },
      requestedAt: group.requested_at.toISOString(),
      deals: Number(group.deals),
      open: Number(group.open),
      approved: Number(group.approved),
      declined: Number(group.declined),
      void: Number(group.void),
      reasonTexts: [...new Set(group.reasons.flat().map(approvalReasonText))].slice(0, GROUP_REASONS_SHOWN),
      mayDecide: decides.get(group.batch_id) ?? false,
    }));
  }
}
