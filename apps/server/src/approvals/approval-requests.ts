import {
  APPROVALS_PAGE_SIZE,
  APPROVER_GROUP_LEVELS,
  type ApprovalList,
  type ApprovalListQuery,
  type ApprovalRequest,
  type ApproverGroup,
  addWorkingDays,
  approvalReasonText,
  type EnvelopeApproval,
  type SendEnvelopeRequest,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import { type Expression, type Selectable, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { ApprovalDecisionsTable, ApprovalRequestsTable } from '../db/schema.js';
import type { MailOutbox } from '../mail/mail-outbox.js';
import { forbidden, HttpError, notFound } from '../shared/http-error.js';
import {
  type ApprovalGate,
  ApprovalRequiredProblem,
  type GateEvaluation,
} from '../signature/approval-gate.js';
import type { Actor, EnvelopesRepository, Executor } from '../signature/envelopes-repository.js';
import type { StaffMember } from '../users/users-repository.js';
import type { ApprovalEvaluation } from './approval-evaluation.js';
import { approvalDecidedMail, approvalEscalatedMail, approvalRequestedMail } from './approval-mails.js';
import type { ApprovalRulesStore } from './approval-rules-store.js';

export interface ApprovalRequestsDeps {
  db: Db;
  rules: ApprovalRulesStore;
  evaluation: ApprovalEvaluation;
  envelopes: EnvelopesRepository;
  outbox: MailOutbox;
  publicUrl: string;
  now?: () => Date;
}

type RequestRow = Selectable<ApprovalRequestsTable>;
type DecisionRow = Selectable<ApprovalDecisionsTable>;
type Decider = Pick<StaffMember, 'email' | 'permission'>;

const GROUPS_OF_LEVEL: Record<number, ApproverGroup> = { 3: 'leaders', 2: 'legal' };

const VOID_DOCUMENT_CHANGED = 'Dokument nach der Anfrage geändert';
const FOUR_EYES =
  'Du kannst deine eigene Anfrage nicht freigeben oder ablehnen: eine Freigabe braucht ein zweites Paar Augen.';

/**
 * Freigabe: approval requests for envelopes, their decisions, and the gate signing asks before a send.
 * An approval belongs to one version of one document; the draft envelope follows its document's latest
 * version, and an edit voids an open or approved request for an older version.
 */
export class ApprovalRequests implements ApprovalGate {
  private readonly now: () => Date;

  constructor(private readonly deps: ApprovalRequestsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  // ---------------------------------------------------------------------------------------------
  // The gate
  // ---------------------------------------------------------------------------------------------

  async evaluate(envelopeId: string): Promise<GateEvaluation> {
    const { rules } = await this.deps.rules.current();
    const evaluated = await this.deps.evaluation.evaluate(envelopeId, rules);
    return { documentVersion: evaluated.documentVersion, reasons: evaluated.reasons };
  }

  async assertSendable(
    envelopeId: string,
    evaluation: GateEvaluation,
    trx: Executor,
    approvalId?: string,
  ): Promise<void> {
    const version = await this.followDocument(envelopeId, trx);
    if (version !== evaluation.documentVersion) {
      throw new HttpError(
        409,
        'document_changed',
        'Das Dokument wurde gerade geändert. Bitte lade die Seite neu und versuche es noch einmal.',
      );
    }
    if (evaluation.reasons.length === 0) return;
    // Only the approval's own send (in the requester's name, with what they asked to send) uses it: a
    // click on `Senden` beside it would send something nobody approved.
    const approved =
      approvalId &&
      (await trx
        .selectFrom('approval_requests')
        .select('id')
        .where('id', '=', approvalId)
        .where('envelope_id', '=', envelopeId)
        .where('status', '=', 'approved')
        .where('document_version', '=', version)
        .executeTakeFirst());
    if (approved) return;
    throw new ApprovalRequiredProblem(evaluation.reasons);
  }

  /**
   * The draft envelope takes its document's latest version; a request for an older version becomes
   * void (open) or loses its pending send (approved). Returns the version the envelope carries now.
   */
  private async followDocument(envelopeId: string, executor: Executor): Promise<number> {
    const envelope = await executor
      .selectFrom('envelopes')
      .select(['document_id', 'document_version', 'status'])
      .where('id', '=', envelopeId)
      .executeTakeFirstOrThrow();
    if (envelope.status !== 'created') return envelope.document_version;
    const latest = await this.deps.evaluation.latestVersion(envelope.document_id, executor);
    if (latest.version !== envelope.document_version) {
      await executor
        .updateTable('envelopes')
        .set({ document_version: latest.version, document_sha256: latest.sha256 })
        .where('id', '=', envelopeId)
        .execute();
    }
    const stale = await executor
      .updateTable('approval_requests')
      .set({
        status: 'void',
        void_reason: VOID_DOCUMENT_CHANGED,
        send_state: sql<null>`case when send_state = 'pending' then 'failed' else send_state end`,
        send_due_at: null,
      })
      .where('envelope_id', '=', envelopeId)
      .where('document_version', '<>', latest.version)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'open'),
          eb.and([eb('status', '=', 'approved'), eb('send_state', '=', 'pending')]),
        ]),
      )
      .returning('id')
      .execute();
    for (const _request of stale) {
      await this.deps.envelopes.addEvent(
        {
          envelopeId,
          type: 'approval_voided',
          actor: { email: '', ip: null, userAgent: null },
          detail: VOID_DOCUMENT_CHANGED,
        },
        executor,
      );
    }
    return latest.version;
  }

  // ---------------------------------------------------------------------------------------------
  // Asking
  // ---------------------------------------------------------------------------------------------

  /** `Zur Freigabe senden`: stores the sender's send request with a new request and mails the approvers. */
  async ask(
    envelopeId: string,
    sendRequest: SendEnvelopeRequest,
    user: StaffMember,
    actor: Actor,
    log: FastifyBaseLogger,
  ): Promise<ApprovalRequest> {
    const { rules } = await this.deps.rules.current();
    const evaluated = await this.deps.evaluation.evaluate(envelopeId, rules, log);
    if (evaluated.envelopeStatus !== 'created') {
      throw new HttpError(409, 'envelope_closed', 'Dieser Umschlag wurde bereits versendet oder beendet.');
    }
    if (evaluated.externalId && evaluated.provider === 'docusign') {
      throw new HttpError(409, 'envelope_closed', 'Dieser Umschlag wird bei DocuSign bearbeitet.');
    }
    if (!evaluated.matchFound) {
      throw new HttpError(
        422,
        'match_unknown',
        `Das Match ${evaluated.matchId} gibt es im CRM nicht mehr. Ohne das Match lässt sich die Marge nicht prüfen; bitte kläre den Deal im CRM.`,
      );
    }
    if (evaluated.reasons.length === 0) {
      throw new HttpError(
        409,
        'approval_not_needed',
        'Dieser Umschlag braucht keine Freigabe. Du kannst ihn direkt senden.',
      );
    }
    const approvers = await this.approverAddresses(
      rules.approvers.order.slice(0, 1),
      rules.deputies,
      user.email,
    );
    const everyone = await this.approverAddresses(rules.approvers.order, rules.deputies, user.email);
    if (everyone.length === 0) {
      throw new HttpError(
        422,
        'no_approver',
        'Niemand außer dir darf diesen Umschlag freigeben. Bitte wende dich an die Verwaltung.',
      );
    }
    const now = this.now();
    const id = await this.deps.db.transaction().execute(async (trx) => {
      const envelope = await trx
        .selectFrom('envelopes')
        .select(['status'])
        .where('id', '=', envelopeId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (envelope.status !== 'created') {
        throw new HttpError(409, 'envelope_closed', 'Dieser Umschlag wurde bereits versendet oder beendet.');
      }
      const version = await this.followDocument(envelopeId, trx);
      if (version !== evaluated.documentVersion) {
        throw new HttpError(
          409,
          'document_changed',
          'Das Dokument wurde gerade geändert. Bitte lade die Seite neu und versuche es noch einmal.',
        );
      }
      const waiting = await trx
        .selectFrom('approval_requests')
        .select('id')
        .where('envelope_id', '=', envelopeId)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'open'),
            eb.and([eb('status', '=', 'approved'), eb('send_state', '=', 'pending')]),
          ]),
        )
        .executeTakeFirst();
      if (waiting) {
        throw new HttpError(
          409,
          'approval_pending',
          'Für diesen Umschlag wartet schon eine Anfrage auf Freigabe.',
        );
      }
      const inserted = await trx
        .insertInto('approval_requests')
        .values({
          envelope_id: envelopeId,
          document_id: evaluated.documentId,
          document_version: evaluated.documentVersion,
          document_sha256: evaluated.documentSha256,
          match_id: evaluated.matchId,
          doc_key: evaluated.docKey,
          file_name: evaluated.fileName,
          customer: evaluated.customer,
          requested_by: user.email,
          requested_by_name: user.name,
          requested_at: now,
          reasons: JSON.stringify(evaluated.reasons),
          rules: JSON.stringify(rules),
          escalates_at:
            rules.approvers.order.length > 1
              ? addWorkingDays(now, rules.approvers.escalationWorkingDays)
              : null,
          send_request: JSON.stringify(sendRequest),
          status: 'open',
        })
        .returning(['id', 'match_id', 'file_name', 'requested_by', 'requested_by_name'])
        .executeTakeFirstOrThrow();
      const texts = evaluated.reasons.map(approvalReasonText);
      await this.deps.envelopes.addEvent(
        { envelopeId, type: 'approval_requested', actor, detail: texts.join('; ') },
        trx,
      );
      await this.deps.outbox.enqueue(
        (approvers.length > 0 ? approvers : everyone).map((to) =>
          approvalRequestedMail(inserted, to, texts, this.deps.publicUrl),
        ),
        trx,
      );
      return inserted.id;
    });
    this.deps.outbox.deliverSoon();
    return this.get(id, user);
  }

  /**
   * Mails the next group in turn of every open request whose escalation is due, once (a periodic job).
   * Each request is claimed with `SKIP LOCKED`, its mails queued in the same transaction.
   */
  async mailEscalations(): Promise<number> {
    let mailed = 0;
    for (;;) {
      const done = await this.deps.db.transaction().execute(async (trx) => {
        const request = await trx
          .selectFrom('approval_requests')
          .selectAll()
          .where('status', '=', 'open')
          .where('escalation_mailed_at', 'is', null)
          .where('escalates_at', '<=', this.now())
          .orderBy('escalates_at')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!request) return false;
        await trx
          .updateTable('approval_requests')
          .set({ escalation_mailed_at: this.now() })
          .where('id', '=', request.id)
          .execute();
        const next = request.rules.approvers.order.slice(1);
        const first = new Set(
          await this.approverAddresses(
            request.rules.approvers.order.slice(0, 1),
            request.rules.deputies,
            request.requested_by,
            trx,
          ),
        );
        const addresses = (await this.approverAddresses(next, [], request.requested_by, trx)).filter(
          (a) => !first.has(a),
        );
        const texts = request.reasons.map(approvalReasonText);
        await this.deps.outbox.enqueue(
          addresses.map((to) => approvalEscalatedMail(request, to, texts, this.deps.publicUrl)),
          trx,
        );
        return true;
      });
      if (!done) break;
      mailed++;
    }
    if (mailed > 0) this.deps.outbox.deliverSoon();
    return mailed;
  }

  /** Addresses of the staff of `groups` and the deputies, without `except` (never the requester). */
  private async approverAddresses(
    groups: readonly ApproverGroup[],
    deputies: string[],
    except: string,
    executor: Executor = this.deps.db,
  ) {
    const levels = groups.map((g) => APPROVER_GROUP_LEVELS[g]);
    const rows = await executor
      .selectFrom('users')
      .select('email')
      .where((eb) =>
        eb.or([
          ...(levels.length > 0 ? [eb('permission', 'in', levels)] : []),
          ...(deputies.length > 0 ? [eb('email', 'in', deputies)] : []),
        ]),
      )
      .execute();
    return [...new Set(rows.map((r) => r.email))].filter(
      (email) => email.toLowerCase() !== except.toLowerCase(),
    );
  }

  // ---------------------------------------------------------------------------------------------
  // Deciding
  // ---------------------------------------------------------------------------------------------

  /**
   * Before the body is read: 404 for an unknown request, 403 for its requester (four eyes) and for
   * anyone the request's rules do not name. The decision checks it again under the row's lock.
   */
  async assertMayDecide(id: string, user: StaffMember): Promise<void> {
    const found = await this.find(id);
    if (!found) throw notFound('Diese Freigabe-Anfrage gibt es nicht.');
    if (found.request.requested_by.toLowerCase() === user.email.toLowerCase()) throw forbidden(FOUR_EYES);
    if (!this.mayDecide(user, found.request)) {
      throw forbidden('Diese Anfrage darfst du nach den Freigabe-Regeln nicht entscheiden.');
    }
  }

  /** `Freigeben`: records the decision and the pending send in one transaction. */
  async approve(id: string, user: StaffMember, actor: Actor, comment: string | null): Promise<void> {
    await this.decide(id, user, actor, { approved: true, comment });
  }

  /** `Ablehnen`: records the decision with its reason and mails the requester; the envelope stays a draft. */
  async decline(id: string, user: StaffMember, actor: Actor, reason: string): Promise<void> {
    await this.decide(id, user, actor, { approved: false, comment: reason });
  }

  private async decide(
    id: string,
    user: StaffMember,
    actor: Actor,
    decision: { approved: boolean; comment: string | null },
  ): Promise<void> {
    let conflict: HttpError | undefined;
    await this.deps.db.transaction().execute(async (trx) => {
      const request = await trx
        .selectFrom('approval_requests')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!request) throw notFound('Diese Freigabe-Anfrage gibt es nicht.');
      if (request.requested_by.toLowerCase() === user.email.toLowerCase()) throw forbidden(FOUR_EYES);
      if (!this.mayDecide(user, request)) {
        throw forbidden('Diese Anfrage darfst du nach den Freigabe-Regeln nicht entscheiden.');
      }
      if (request.status !== 'open') {
        const earlier = await trx
          .selectFrom('approval_decisions')
          .selectAll()
          .where('request_id', '=', id)
          .executeTakeFirst();
        throw new HttpError(
          409,
          'already_decided',
          earlier
            ? `Diese Anfrage wurde bereits von ${earlier.decided_by_name} ${earlier.decision === 'approved' ? 'freigegeben' : 'abgelehnt'}.`
            : 'Diese Anfrage ist nicht mehr offen.',
        );
      }
      if (request.envelope_id) {
        const version = await this.followDocument(request.envelope_id, trx);
        const envelope = await trx
          .selectFrom('envelopes')
          .select('status')
          .where('id', '=', request.envelope_id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        if (envelope.status !== 'created' || version !== request.document_version) {
          // Recorded, then answered: the request is void whatever the approver chose.
          if (envelope.status !== 'created') {
            await trx
              .updateTable('approval_requests')
              .set({ status: 'void', void_reason: 'Umschlag nicht mehr offen' })
              .where('id', '=', id)
              .execute();
          }
          conflict = new HttpError(
            409,
            'approval_void',
            envelope.status !== 'created'
              ? 'Der Umschlag ist nicht mehr offen; die Anfrage ist hinfällig.'
              : 'Das Dokument wurde nach der Anfrage geändert; die Anfrage ist hinfällig.',
          );
          return;
        }
      }
      const inserted = await trx
        .insertInto('approval_decisions')
        .values({
          request_id: id,
          decision: decision.approved ? 'approved' : 'declined',
          decided_by: user.email,
          decided_by_name: user.name,
          comment: decision.comment,
        })
        .onConflict((oc) => oc.column('request_id').doNothing())
        .returning('request_id')
        .executeTakeFirst();
      if (!inserted) throw new HttpError(409, 'already_decided', 'Diese Anfrage wurde gerade entschieden.');
      await trx
        .updateTable('approval_requests')
        .set(
          decision.approved
            ? {
                status: 'approved',
                send_state: request.envelope_id ? 'pending' : null,
                send_due_at: this.now(),
              }
            : { status: 'declined' },
        )
        .where('id', '=', id)
        .execute();
      if (request.envelope_id) {
        await this.deps.envelopes.addEvent(
          {
            envelopeId: request.envelope_id,
            type: decision.approved ? 'approved' : 'approval_declined',
            actor,
            detail: [`${user.name} <${user.email}>`, decision.comment].filter(Boolean).join(': '),
          },
          trx,
        );
      }
      await this.deps.outbox.enqueue(
        [
          approvalDecidedMail(
            request,
            { approved: decision.approved, by: user.email, byName: user.name, comment: decision.comment },
            this.deps.publicUrl,
            request.envelope_id,
          ),
        ],
        trx,
      );
    });
    this.deps.outbox.deliverSoon();
    if (conflict) throw conflict;
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

  // ---------------------------------------------------------------------------------------------
  // Reading
  // ---------------------------------------------------------------------------------------------

  /** Who sees a request: its requester, who decided it, and whoever the rules name as approver. */
  private visibleTo(user: Decider): Expression<SqlBool> {
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

  async list(user: StaffMember, query: ApprovalListQuery): Promise<ApprovalList> {
    const base = () => {
      let q = this.deps.db
        .selectFrom('approval_requests')
        .leftJoin('approval_decisions', 'approval_decisions.request_id', 'approval_requests.id')
        .where(this.visibleTo(user));
      if (query.q) {
        const pattern = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q = q.where((eb) =>
          eb.or([
            eb('approval_requests.match_id', 'ilike', pattern),
            eb('approval_requests.file_name', 'ilike', pattern),
            eb('approval_requests.customer', 'ilike', pattern),
            eb('approval_requests.requested_by_name', 'ilike', pattern),
            eb('approval_requests.requested_by', 'ilike', pattern),
          ]),
        );
      }
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
    if (status.status === 'created') {
      await this.deps.db.transaction().execute(async (trx) => {
        await trx.selectFrom('envelopes').select('id').where('id', '=', envelopeId).forUpdate().execute();
        version = await this.followDocument(envelopeId, trx);
      });
      const { rules } = await this.deps.rules.current();
      reasons = (await this.deps.evaluation.evaluate(envelopeId, rules, log)).reasons;
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
      request: view && {
        id: view.id,
        status: view.status,
        requestedBy: view.requestedBy,
        requestedAt: view.requestedAt,
        reasons: view.reasons,
        reasonTexts: view.reasonTexts,
        decidedBy: view.decidedBy,
        decidedAt: view.decidedAt,
        comment: view.comment,
        voidReason: view.voidReason,
        documentVersion: view.documentVersion,
        send: view.send,
      },
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
          }
        : null,
    };
  }
}

function decisionOf(row: {
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
