/**
 * Owns Freigabe of a document that is downloaded rather than signed (a DOCX contract, a termination, an
 * offer, an agreement): asking for the approval of its latest version, what the editor shows of it, and
 * the gate of the download a person saves. Deciding is the envelope requests' own (approval-requests.ts):
 * the same four eyes, the same row lock and decision key; approving releases the version, nothing is sent.
 */
import {
  type ApprovalReason,
  type ApprovalRequest,
  type ApprovalRequiredError,
  approvalReasonText,
  type DocumentApproval,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError, notFound } from '../shared/http-error.js';
import type { Executor } from '../signature/envelopes-repository.js';
import type { StaffMember } from '../users/users-repository.js';
import { followStoredDocument } from './approval-document-version.js';
import { addresseesOfNewRequest } from './approval-escalation.js';
import { matchUnknown, newRequestColumns } from './approval-evaluation.js';
import { approvalRequestedMail } from './approval-mails.js';
import { type ApprovalQueries, requestSummary } from './approval-queries.js';
import type { ApprovalRequestsDeps } from './approval-requests.js';

/** 409 `approval_required` for a download: the version needs an approval and has none. */
export class DocumentApprovalRequired extends Error {
  override name = 'DocumentApprovalRequired';
  constructor(readonly reasons: ApprovalReason[]) {
    super(
      `Dieses Dokument braucht eine Freigabe, bevor du es herunterladen kannst: ${reasons
        .map(approvalReasonText)
        .join('; ')}. Sende es im Editor zur Freigabe.`,
    );
  }

  get body(): ApprovalRequiredError {
    return {
      error: 'approval_required',
      message: this.message,
      reasons: this.reasons,
      reasonTexts: this.reasons.map(approvalReasonText),
    };
  }
}

const DOCUMENT_CHANGED =
  'Das Dokument wurde gerade geändert. Bitte lade die Seite neu und versuche es noch einmal.';

export class DocumentApprovals {
  private readonly now: () => Date;

  constructor(
    private readonly deps: ApprovalRequestsDeps,
    private readonly queries: ApprovalQueries,
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The editor's part: what the rules ask of the latest version now, its release and the latest request. */
  async status(documentId: string, user: StaffMember, log: FastifyBaseLogger): Promise<DocumentApproval> {
    // Before evaluating: an open request for an older version is void once a newer one exists.
    await this.deps.db.transaction().execute((trx) => followStoredDocument(this.deps, documentId, trx));
    const { rules } = await this.deps.rules.current();
    const evaluated = await this.deps.evaluation.evaluateDocument(documentId, rules, log);
    if (!evaluated) throw notFound('Dieses Dokument gibt es nicht.');
    const version = evaluated.documentVersion;
    if (!evaluated.final) {
      return {
        applies: false,
        version,
        required: false,
        reasons: [],
        reasonTexts: [],
        released: null,
        request: null,
      };
    }
    const released = await this.release(documentId, version);
    const latest = await this.deps.db
      .selectFrom('approval_requests')
      .selectAll()
      .where('document_id', '=', documentId)
      .where('envelope_id', 'is', null)
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
    const view = latest ? this.queries.toView(latest, decision, user) : null;
    return {
      applies: true,
      version,
      required: evaluated.reasons.length > 0 && released === null,
      reasons: evaluated.reasons,
      reasonTexts: evaluated.reasons.map(approvalReasonText),
      released,
      request: view && requestSummary(view),
    };
  }

  /** `Zur Freigabe senden` in the editor: a request for the latest version; the approvers are mailed. */
  async ask(documentId: string, user: StaffMember, log: FastifyBaseLogger): Promise<ApprovalRequest> {
    const { rules } = await this.deps.rules.current();
    const evaluated = await this.deps.evaluation.evaluateDocument(documentId, rules, log);
    if (!evaluated) throw notFound('Dieses Dokument gibt es nicht.');
    if (!evaluated.final) {
      throw new HttpError(
        409,
        'approval_not_needed',
        'Dieses Dokument wird zur Unterschrift versendet: freigegeben wird sein Umschlag in der Ansicht zum Senden.',
      );
    }
    if (!evaluated.matchFound) throw matchUnknown(evaluated.matchId);
    if (evaluated.reasons.length === 0) {
      throw new HttpError(
        409,
        'approval_not_needed',
        'Dieses Dokument braucht keine Freigabe. Du kannst es direkt herunterladen.',
      );
    }
    const addressees = await addresseesOfNewRequest(this.deps.db, rules, user.email, 'dieses Dokument');
    const now = this.now();
    const id = await this.deps.db.transaction().execute(async (trx) => {
      // Two people asking at once: the second waits here and then finds the first one's request.
      await trx.selectFrom('documents').select('id').where('id', '=', documentId).forUpdate().execute();
      const version = await followStoredDocument(this.deps, documentId, trx);
      if (version !== evaluated.documentVersion)
        throw new HttpError(409, 'document_changed', DOCUMENT_CHANGED);
      if (await this.release(documentId, version, trx)) {
        throw new HttpError(
          409,
          'approval_not_needed',
          'Diese Version ist bereits freigegeben. Du kannst sie herunterladen.',
        );
      }
      const waiting = await trx
        .selectFrom('approval_requests')
        .select('id')
        .where('document_id', '=', documentId)
        .where('envelope_id', 'is', null)
        .where('status', '=', 'open')
        .executeTakeFirst();
      if (waiting) {
        throw new HttpError(
          409,
          'approval_pending',
          'Für dieses Dokument wartet schon eine Anfrage auf Freigabe.',
        );
      }
      const inserted = await trx
        .insertInto('approval_requests')
        .values({
          envelope_id: null,
          document_id: documentId,
          ...newRequestColumns(evaluated, rules, user, now, addressees.escalated),
          send_request: null,
          status: 'open',
        })
        .returning(['id', 'match_id', 'file_name', 'requested_by', 'requested_by_name', 'document_id'])
        .executeTakeFirstOrThrow();
      await this.deps.events?.record(
        { kind: 'document.approval', documentId, requestId: inserted.id, type: 'approval_requested' },
        trx,
      );
      const texts = evaluated.reasons.map(approvalReasonText);
      await this.deps.outbox.enqueue(
        addressees.to.map((to) => approvalRequestedMail(inserted, to, texts, this.deps.publicUrl)),
        trx,
      );
      return inserted.id;
    });
    this.deps.outbox.deliverSoon();
    return this.queries.get(id, user);
  }

  /**
   * The gate of the download a person saves: a version that needs an approval is handed out only once
   * it is released. Throws `DocumentApprovalRequired` with the reasons; undefined for an unknown version.
   */
  async assertDownloadable(
    documentId: string,
    version: number | undefined,
    log: FastifyBaseLogger,
  ): Promise<void> {
    const { rules } = await this.deps.rules.current();
    const evaluated = await this.deps.evaluation.evaluateDocument(documentId, rules, log, version);
    if (!evaluated) {
      throw notFound(
        version === undefined
          ? 'Dieses Dokument gibt es nicht.'
          : `Version ${version} dieses Dokuments gibt es nicht.`,
      );
    }
    if (!evaluated.final || evaluated.reasons.length === 0) return;
    if (await this.release(documentId, evaluated.documentVersion)) return;
    throw new DocumentApprovalRequired(evaluated.reasons);
  }

  /** The approval of exactly this version, if it has one. */
  private async release(
    documentId: string,
    version: number,
    executor: Executor = this.deps.db,
  ): Promise<DocumentApproval['released']> {
    const row = await executor
      .selectFrom('approval_requests')
      .innerJoin('approval_decisions', 'approval_decisions.request_id', 'approval_requests.id')
      .select([
        'approval_decisions.decided_by',
        'approval_decisions.decided_by_name',
        'approval_decisions.decided_at',
        'approval_decisions.comment',
      ])
      .where('approval_requests.document_id', '=', documentId)
      .where('approval_requests.envelope_id', 'is', null)
      .where('approval_requests.status', '=', 'approved')
      .where('approval_requests.document_version', '=', version)
      .orderBy('approval_decisions.decided_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return null;
    return {
      by: { email: row.decided_by, name: row.decided_by_name },
      at: row.decided_at.toISOString(),
      comment: row.comment,
    };
  }
}
