/**
 * Owns reading Freigabe: who sees a request and whose turn it is to decide it, `/freigaben`'s list and
 * one request, the sender view's part of an envelope, and the figures of the open requests.
 */
import {
  APPROVALS_PAGE_SIZE,
  type ApprovalList,
  type ApprovalListQuery,
  type ApprovalRequest,
  type ApprovalRequestSummary,
  type ApproverGroup,
  approvalReasonText,
  type EnvelopeApproval,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import { type Expression, type Selectable, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { ApprovalDecisionsTable, ApprovalRequestsTable } from '../db/schema.js';
import { forbidden, notFound } from '../shared/http-error.js';
import { containing } from '../shared/text-match.js';
import { SEND_UNCERTAIN_MESSAGE } from '../signature/docusign/docusign-approved-sender.js';
import type { Executor } from '../signature/envelopes-repository.js';
import type { StaffMember } from '../users/users-repository.js';
import { type DocumentFollowingDeps, followDocument } from './approval-document-version.js';
import type { ApprovalRulesStore } from './approval-rules-store.js';

export interface ApprovalQueriesDeps extends DocumentFollowingDeps {
  db: Db;
  rules: ApprovalRulesStore;
  now?: () => Date;
}

export type RequestRow = Selectable<ApprovalRequestsTable>;
export type DecisionRow = Selectable<ApprovalDecisionsTable>;
type Decider = Pick<StaffMember, 'email' | 'permission'> & { administrator?: boolean };

const GROUPS_OF_LEVEL: Record<number, ApproverGroup> = { 3: 'leaders', 2: 'legal' };

export class ApprovalQueries {
  private readonly now: () => Date;

  constructor(private readonly deps: ApprovalQueriesDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The groups that may decide now: the first in turn, the next once the escalation is due. */
  currentGroups(request: Pick<RequestRow, 'rules' | 'escalates_at' | 'status'>): ApproverGroup[] {
    const order = request.rules.approvers.order;
    if (request.status !== 'open') return [];
    const escalated = request.escalates_at !== null && request.escalates_at.getTime() <= this.now().getTime();
    return escalated ? [...order] : order.slice(0, 1);
  }

  /** Never the requester; a deputy, or a member of a group whose turn it is. */
  mayDecide(user: Decider, request: Pick<RequestRow, 'rules' | 'escalates_at' | 'status' | 'requested_by'>) {
    if (request.status !== 'open') {
      // Who could have decided it: for the 409 of the second approver, not the 403.
      const group = user.permission ? GROUPS_OF_LEVEL[user.permission] : undefined;
      return (
        request.rules.deputies.includes(user.email.toLowerCase()) ||
        (group !== undefined && request.rules.approvers.order.includes(group))
      );
    }
    if (request.requested_by.toLowerCase() === user.email.toLowerCase()) return false;
    if (request.rules.deputies.includes(user.email.toLowerCase())) return true;
    const group = user.permission ? GROUPS_OF_LEVEL[user.permission] : undefined;
    return group !== undefined && this.currentGroups(request).includes(group);
  }

  /** Who sees a request: its requester, who decided it, and whoever the rules name as approver. */
  visibleTo(user: Decider): Expression<SqlBool> {
    const email = user.email.toLowerCase();
    const group = user.permission ? GROUPS_OF_LEVEL[user.permission] : undefined;
    const byGroup = group
      ? sql`or approval_requests.rules -> 'approvers' -> 'order' @> ${JSON.stringify([group])}::jsonb`
      : sql``;
    return sql<SqlBool>`(approval_requests.requested_by = ${user.email}
      or approval_decisions.decided_by = ${user.email}
      or approval_requests.rules -> 'deputies' @> ${JSON.stringify([email])}::jsonb
      ${byGroup})`;
  }

  async list(user: StaffMember, query: ApprovalListQuery): Promise<Omit<ApprovalList, 'batches'>> {
    const base = () => {
      let q = this.deps.db
        .selectFrom('approval_requests')
        .leftJoin('approval_decisions', 'approval_decisions.request_id', 'approval_requests.id')
        .where(this.visibleTo(user))
        // A batch's deals are listed as one grouped request (batch-approvals.ts).
        .where('approval_requests.batch_id', 'is', null);
      if (query.q) q = q.where(searchedFor(query.q));
      return q;
    };
    const countRow = await base()
      .select([
        sql<string>`count(*) filter (where approval_requests.status = 'open')`.as('open'),
        sql<string>`count(*) filter (where approval_requests.status <> 'open')`.as('decided'),
        sql<string>`count(*)`.as('all'),
      ])
      .executeTakeFirstOrThrow();
    const counts = {
      open: Number(countRow.open),
      decided: Number(countRow.decided),
      all: Number(countRow.all),
    };
    let rows = base()
      .selectAll('approval_requests')
      .select([
        'approval_decisions.decision',
        'approval_decisions.decided_by',
        'approval_decisions.decided_by_name',
        'approval_decisions.decided_at',
        'approval_decisions.comment',
      ]);
    if (query.status === 'open') rows = rows.where('approval_requests.status', '=', 'open');
    if (query.status === 'decided') rows = rows.where('approval_requests.status', '<>', 'open');
    const page = await rows
      .orderBy('approval_requests.requested_at', 'desc')
      .orderBy('approval_requests.id', 'desc')
      .limit(APPROVALS_PAGE_SIZE)
      .offset((query.page - 1) * APPROVALS_PAGE_SIZE)
      .execute();
    return {
      requests: page.map((row) => this.toView(row, decisionOf(row), user)),
      total: counts[query.status],
      page: query.page,
      pageSize: APPROVALS_PAGE_SIZE,
      counts,
    };
  }

  /** One request, if the user may see it. */
  async get(id: string, user: StaffMember): Promise<ApprovalRequest> {
    const row = await this.find(id);
    if (!row) throw notFound('Diese Freigabe-Anfrage gibt es nicht.');
    if (!this.maySee(user, row.request, row.decision)) {
      throw forbidden('Diese Freigabe-Anfrage darfst du nicht sehen.');
    }
    return this.toView(row.request, row.decision, user);
  }

  /** The request and its decision, without a check of who asks. */
  async find(id: string): Promise<{ request: RequestRow; decision: DecisionRow | undefined } | undefined> {
    const request = await this.deps.db
      .selectFrom('approval_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!request) return undefined;
    const decision = await this.deps.db
      .selectFrom('approval_decisions')
      .selectAll()
      .where('request_id', '=', id)
      .executeTakeFirst();
    return { request, decision };
  }

  maySee(user: Decider, request: RequestRow, decision: DecisionRow | undefined): boolean {
    return (
      request.requested_by.toLowerCase() === user.email.toLowerCase() ||
      decision?.decided_by.toLowerCase() === user.email.toLowerCase() ||
      this.mayDecide(user, { ...request, status: 'approved' })
    );
  }

  /** The sender view's part: what the rules ask of the envelope now, and its latest request. */
  async envelopeApproval(
    envelopeId: string,
    user: StaffMember,
    log: FastifyBaseLogger,
  ): Promise<EnvelopeApproval> {
    const status = await this.deps.db
      .selectFrom('envelopes')
      .select('status')
      .where('id', '=', envelopeId)
      .executeTakeFirstOrThrow();
    let reasons: EnvelopeApproval['reasons'] = [];
    let version: number | undefined;
    let held = false;
    if (status.status === 'created') {
      await this.deps.db.transaction().execute(async (trx) => {
        await trx.selectFrom('envelopes').select('id').where('id', '=', envelopeId).forUpdate().execute();
        version = await followDocument(this.deps, envelopeId, trx);
      });
      const { rules } = await this.deps.rules.current();
      const evaluated = await this.deps.evaluation.evaluate(envelopeId, rules, log);
      reasons = evaluated.reasons;
      held = evaluated.provider === 'docusign' && evaluated.externalId === null;
    }
    const latest = await this.deps.db
      .selectFrom('approval_requests')
      .selectAll()
      .where('envelope_id', '=', envelopeId)
      .orderBy('requested_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const decision =
      latest &&
      (await this.deps.db
        .selectFrom('approval_decisions')
        .selectAll()
        .where('request_id', '=', latest.id)
        .executeTakeFirst());
    const approvedForVersion =
      latest?.status === 'approved' && latest.document_version === version && latest.send_state === 'pending';
    const view = latest ? this.toView(latest, decision, user) : null;
    return {
      required: status.status === 'created' && reasons.length > 0 && !approvedForVersion,
      reasons,
      reasonTexts: reasons.map(approvalReasonText),
      request: view && requestSummary(view),
      ...(held ? { held } : {}),
    };
  }

  /** Open requests and the age of the oldest, in seconds (0 when none is open). */
  async openStats(): Promise<{ open: number; oldestSeconds: number }> {
    const row = await this.deps.db
      .selectFrom('approval_requests')
      .select([
        sql<string>`count(*)`.as('open'),
        sql<number | null>`extract(epoch from now() - min(requested_at))`.as('oldest'),
      ])
      .where('status', '=', 'open')
      .executeTakeFirstOrThrow();
    return { open: Number(row.open), oldestSeconds: Number(row.oldest ?? 0) };
  }

  toView(request: RequestRow, decision: DecisionRow | undefined, user: Decider): ApprovalRequest {
    const reasons = request.reasons;
    // The approved send's own record says so (approval-sends.ts keeps the sender's problem as it is);
    // `send-again` checks the envelope itself before it lets the send run again.
    const uncertain =
      request.status === 'approved' &&
      request.send_state === 'failed' &&
      request.send_error === SEND_UNCERTAIN_MESSAGE;
    return {
      id: request.id,
      envelopeId: request.envelope_id,
      documentId: request.document_id,
      documentVersion: request.document_version,
      matchId: request.match_id,
      docKey: request.doc_key,
      fileName: request.file_name,
      customer: request.customer,
      requestedBy: { email: request.requested_by, name: request.requested_by_name },
      requestedAt: request.requested_at.toISOString(),
      reasons,
      reasonTexts: reasons.map(approvalReasonText),
      status: request.status,
      decidedBy: decision ? { email: decision.decided_by, name: decision.decided_by_name } : null,
      decidedAt: decision ? decision.decided_at.toISOString() : null,
      comment: decision?.comment ?? null,
      voidReason: request.void_reason,
      rules: request.rules,
      escalatesAt:
        request.status === 'open' && request.escalates_at ? request.escalates_at.toISOString() : null,
      currentGroups: this.currentGroups(request),
      mayDecide: request.status === 'open' && this.mayDecide(user, request),
      send: request.send_state
        ? {
            state: request.send_state,
            at: request.sent_at ? request.sent_at.toISOString() : null,
            error: request.send_error,
            uncertain,
          }
        : null,
      maySendAgain:
        uncertain &&
        (request.requested_by.toLowerCase() === user.email.toLowerCase() || user.administrator === true),
      batchId: request.batch_id,
    };
  }
}

/** The decision columns of a request joined with its decision, as a decision row (none when undecided). */
export function decisionOf(row: {
  id: string;
  decision: 'approved' | 'declined' | null;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: Date | null;
  comment: string | null;
}): DecisionRow | undefined {
  if (!row.decision || !row.decided_by || !row.decided_at) return undefined;
  return {
    request_id: row.id,
    decision: row.decision,
    decided_by: row.decided_by,
    decided_by_name: row.decided_by_name ?? row.decided_by,
    decided_at: row.decided_at,
    comment: row.comment,
  };
}

/** The latest request as the sender view and the editor show it: the request without its rules. */
export function requestSummary(view: ApprovalRequest): ApprovalRequestSummary {
  const { id, status, requestedBy, requestedAt, reasons, reasonTexts } = view;
  const { decidedBy, decidedAt, comment, voidReason, documentVersion, send, maySendAgain } = view;
  return {
    id,
    status,
    requestedBy,
    requestedAt,
    reasons,
    reasonTexts,
    decidedBy,
    decidedAt,
    comment,
    voidReason,
    documentVersion,
    send,
    maySendAgain,
  };
}

/**
 * A request of the envelope that still waits (open, or approved and not yet sent), other than `exceptId`:
 * while one does, the envelope is asked for or sent by no other.
 */
export function waitingRequestOf(executor: Executor, envelopeId: string, exceptId?: string) {
  let query = executor
    .selectFrom('approval_requests')
    .select('id')
    .where('envelope_id', '=', envelopeId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'open'),
        eb.and([eb('status', '=', 'approved'), eb('send_state', '=', 'pending')]),
      ]),
    );
  if (exceptId) query = query.where('id', '<>', exceptId);
  return query.executeTakeFirst();
}

/** The request, locked for the rest of the transaction (a decision or a send again); 404 when unknown. */
export async function lockedRequest(executor: Executor, id: string): Promise<RequestRow> {
  const request = await executor
    .selectFrom('approval_requests')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!request) throw notFound('Diese Freigabe-Anfrage gibt es nicht.');
  return request;
}

/** A request whose match, file, customer or requester contains the search, any case. */
export function searchedFor(search: string): Expression<SqlBool> {
  const pattern = containing(search);
  return sql<SqlBool>`(approval_requests.match_id ilike ${pattern}
    or approval_requests.file_name ilike ${pattern}
    or approval_requests.customer ilike ${pattern}
    or approval_requests.requested_by_name ilike ${pattern}
    or approval_requests.requested_by ilike ${pattern})`;
}
