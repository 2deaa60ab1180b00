import {
  type ApprovalReason,
  type ApprovalRequiredError,
  approvalReasonText,
  type EnvelopeView,
  type SendEnvelopeRequest,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { StaffMember } from '../users/users-repository.js';
import type { Actor, Executor } from './envelopes-repository.js';

/**
 * The seam between sending an envelope and Freigabe (apps/server/src/approvals/): signing asks the gate
 * before anything goes out, and the approvals' send run sends an approved envelope through
 * `ApprovedSender`. Signing never imports the approvals' room, nor the approvals signing's routes.
 */
export interface ApprovalGate {
  /**
   * Outside any transaction (it may ask the CRM for the match): what the rules say of the envelope's
   * document as it is now.
   */
  evaluate(envelopeId: string): Promise<GateEvaluation>;
  /**
   * In the send's transaction, with the envelope's row locked: the draft takes its document's latest
   * version (an edit voids an earlier approval), then throws `ApprovalRequiredProblem` when the
   * document needs an approval and has none for this version. `approvalId`: the send of that approval.
   */
  assertSendable(
    envelopeId: string,
    evaluation: GateEvaluation,
    trx: Executor,
    approvalId?: string,
  ): Promise<void>;
}

/** What the rules said of one version of an envelope's document. */
export interface GateEvaluation {
  documentVersion: number;
  reasons: ApprovalReason[];
}

/** 409 `approval_required`: the envelope needs an approval and has none; the body names the reasons. */
export class ApprovalRequiredProblem extends Error {
  override name = 'ApprovalRequiredProblem';
  constructor(readonly reasons: ApprovalReason[]) {
    super(
      `Dieser Umschlag braucht eine Freigabe, bevor er versendet werden kann: ${reasons
        .map(approvalReasonText)
        .join('; ')}.`,
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

/** How the approvals' send run sends an approved envelope in the requester's name, exactly once. */
export interface ApprovedSender {
  /**
   * Sends the envelope as `request` says; `onSent` runs in the send's own transaction, so the send and
   * its record (the approval's send marked done) are committed together or not at all. `approvalId`:
   * the approval it is sent on; none for a batch's deal that needs no approval (the gate checks that).
   */
  sendApproved(
    envelopeId: string,
    request: SendEnvelopeRequest,
    actor: Actor,
    approvalId: string | undefined,
    onSent: (trx: Executor) => Promise<void>,
  ): Promise<void>;
}

/** The sender view's part of Freigabe (the `approval` field of the envelope view). */
export interface EnvelopeApprovalSource {
  envelopeApproval(
    envelopeId: string,
    user: StaffMember,
    log: FastifyBaseLogger,
  ): Promise<EnvelopeView['approval']>;
}
