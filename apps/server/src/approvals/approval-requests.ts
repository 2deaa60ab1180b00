/**
 * Owns the write side of Freigabe: the gate signing asks before a send, asking for an approval, and
 * deciding it. Reading lives in approval-queries.ts, the escalation mails in approval-escalation.ts.
 */
import {
  type ApprovalRequest,
  approvalReasonText,
  type EnvelopeApproval,
  type SendEnvelopeRequest,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { forbidden, HttpError, notFound } from '../shared/http-error.js';
import type { EventSink } from '../shared/product-events.js';
import {
  type ApprovalGate,
  ApprovalRequiredProblem,
  type EnvelopeApprovalSource,
  type GateEvaluation,
} from '../signature/approval-gate.js';
import type { Actor, Executor } from '../signature/envelopes-repository.js';
import type { StaffMember } from '../users/users-repository.js';
import { followDocument, followStoredDocument } from './approval-document-version.js';
import {
  ApprovalEscalation,
  type ApprovalEscalationDeps,
  addresseesOfNewRequest,
} from './approval-escalation.js';
import { matchUnknown, newRequestColumns } from './approval-evaluation.js';
import { approvalDecidedMail, approvalRequestedMail } from './approval-mails.js';
import {
  ApprovalQueries,
  type ApprovalQueriesDeps,
  lockedRequest,
  waitingRequestOf,
} from './approval-queries.js';

export interface ApprovalRequestsDeps extends ApprovalQueriesDeps, ApprovalEscalationDeps {
  /** Where a document's approval is reported (webhooks); an envelope's goes with its history entry. */
  events?: EventSink<Kysely<Database>>;
}

const FOUR_EYES =
  'Du kannst deine eigene Anfrage nicht freigeben oder ablehnen: eine Freigabe braucht ein zweites Paar Augen.';

/**
 * Freigabe: approval requests for envelopes, their decisions, and the gate signing asks before a send.
 * An approval belongs to one version of one document (approval-document-version.ts).
 */
export class ApprovalRequests implements ApprovalGate, EnvelopeApprovalSource {
  private readonly now: () => Date;
  /** The read side, made from the same dependencies: the routes read through it too. */
  readonly queries: ApprovalQueries;
  private readonly escalation: ApprovalEscalation;

  constructor(private readonly deps: ApprovalRequestsDeps) {
    this.now = deps.now ?? (() => new Date());
    this.queries = new ApprovalQueries(deps);
    this.escalation = new ApprovalEscalation(deps);
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
    const version = await followDocument(this.deps, envelopeId, trx);
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
    if (!evaluated.matchFound) throw matchUnknown(evaluated.matchId);
    if (evaluated.reasons.length === 0) {
      throw new HttpError(
        409,
        'approval_not_needed',
        'Dieser Umschlag braucht keine Freigabe. Du kannst ihn direkt senden.',
      );
    }
    const addressees = await addresseesOfNewRequest(this.deps.db, rules, user.email, 'diesen Umschlag');
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
      const version = await followDocument(this.deps, envelopeId, trx);
      if (version !== evaluated.documentVersion) {
        throw new HttpError(
          409,
          'document_changed',
          'Das Dokument wurde gerade geändert. Bitte lade die Seite neu und versuche es noch einmal.',
        );
      }
      if (await waitingRequestOf(trx, envelopeId)) {
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
          ...newRequestColumns(evaluated, rules, user, now, addressees.escalated),
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
        addressees.to.map((to) => approvalRequestedMail(inserted, to, texts, this.deps.publicUrl)),
        trx,
      );
      return inserted.id;
    });
    this.deps.outbox.deliverSoon();
    return this.queries.get(id, user);
  }

  // ---------------------------------------------------------------------------------------------
  // Deciding
  // ---------------------------------------------------------------------------------------------

  /**
   * Before the body is read: 404 for an unknown request, 403 for its requester (four eyes) and for
   * anyone the request's rules do not name. The decision checks it again under the row's lock.
   */
  async assertMayDecide(id: string, user: StaffMember): Promise<void> {
    const found = await this.queries.find(id);
    if (!found) throw notFound('Diese Freigabe-Anfrage gibt es nicht.');
    if (found.request.requested_by.toLowerCase() === user.email.toLowerCase()) throw forbidden(FOUR_EYES);
    if (!this.queries.mayDecide(user, found.request)) {
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
      const request = await lockedRequest(trx, id);
      if (request.requested_by.toLowerCase() === user.email.toLowerCase()) throw forbidden(FOUR_EYES);
      if (!this.queries.mayDecide(user, request)) {
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
        const version = await followDocument(this.deps, request.envelope_id, trx);
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
      } else if (
        (await followStoredDocument(this.deps, request.document_id, trx)) !== request.document_version
      ) {
        conflict = new HttpError(
          409,
          'approval_void',
          'Das Dokument wurde nach der Anfrage geändert; die Anfrage ist hinfällig.',
        );
        return;
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
      } else {
        await this.deps.events?.record(
          {
            kind: 'document.approval',
            documentId: request.document_id,
            requestId: id,
            type: decision.approved ? 'approved' : 'approval_declined',
          },
          trx,
        );
      }
      // A batch's approvals are told once (batch-approvals.ts); a decline with its reason, as always.
      if (!request.batch_id || !decision.approved)
        await this.deps.outbox.enqueue(
          approvalDecidedMail(
            request,
            { approved: decision.approved, by: user.email, byName: user.name, comment: decision.comment },
            this.deps.publicUrl,
            request.envelope_id,
          ),
          trx,
        );
    });
    this.deps.outbox.deliverSoon();
    if (conflict) throw conflict;
  }

  // ---------------------------------------------------------------------------------------------
  // What the signature area and the periodic jobs ask of the same object
  // ---------------------------------------------------------------------------------------------

  /** The sender view's part (approval-queries.ts); signing asks it beside the gate. */
  envelopeApproval(envelopeId: string, user: StaffMember, log: FastifyBaseLogger): Promise<EnvelopeApproval> {
    return this.queries.envelopeApproval(envelopeId, user, log);
  }

  /** The escalation mails' periodic run (approval-escalation.ts). */
  mailEscalations(): Promise<number> {
    return this.escalation.mailEscalations();
  }
}
