import {
  type EsignatureDataList,
  type RecipientInput,
  recipientsFromDataList,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { DocumentGeneration, GenerationRequest } from '../documents/generate-document.js';
import { HttpError, notFound } from '../shared/http-error.js';
import { sha256Hex } from '../shared/sha256.js';
import type { ApprovalGate } from './approval-gate.js';
import { type Countersignature, docusignRecipientsWith } from './countersignature.js';
import type { Actor, EnvelopesRepository } from './envelopes-repository.js';
import { type SignatureProvider, SignatureProviderError } from './signature-provider.js';

export interface EnvelopeCreationDeps {
  generation: DocumentGeneration;
  envelopes: EnvelopesRepository;
  provider: SignatureProvider;
  publicUrl: string;
  /** With DocuSign, the company's countersigner joins the envelope when it is created. */
  countersignature: Countersignature;
  /**
   * Freigabe in DocuSign mode: an envelope that needs an approval is held here as a draft, not created at
   * DocuSign (where its sender could send it); the answer is our sender view, to send it for approval.
   */
  approvalGate?: ApprovalGate;
}

export interface EnvelopeRequest extends GenerationRequest {
  /** The browser's key for one click on "generate": retries of the same click carry the same key. */
  requestKey: string | null;
  /** The user with their address and browser, as the envelope's events record them. */
  actor: Actor;
}

/** DocuSign's limit for an e-mail subject. */
const SUBJECT_MAX = 100;

const envelopeInProgress = () =>
  new HttpError(409, 'in_progress', 'Dieser Umschlag wird gerade erstellt. Bitte warte einen Moment.');

/**
 * Creating an envelope: generates the document, records the envelope, creates it at the signature
 * provider as a draft and answers the URL of its sender view. The record exists before the provider is
 * called, and a retried request (same idempotency key) is answered from the envelope it already
 * created: a network hiccup never makes a second envelope.
 */
export class EnvelopeCreation {
  constructor(private readonly deps: EnvelopeCreationDeps) {}

  async create(request: EnvelopeRequest, log: FastifyBaseLogger): Promise<string> {
    const { envelopes, provider } = this.deps;
    const { user, requestKey, actor } = request;
    if (requestKey) {
      const earlier = await envelopes.findByRequestKey(user.email, requestKey);
      if (earlier?.external_id) {
        return this.senderView({ id: earlier.id, externalId: earlier.external_id }, log);
      }
      if (earlier?.status === 'created' && (await this.heldForApproval(earlier.id))) {
        return this.ourSenderView(earlier.id);
      }
      if (earlier?.status === 'created') throw envelopeInProgress();
      // Only a refusal keeps its key (see below), and it may have left an envelope at the provider
      // (no answer in time): the same click gets the same answer, never a second envelope.
      if (earlier?.status === 'failed') {
        throw new HttpError(422, 'signature_rejected', earlier.error ?? 'Der Umschlag wurde abgelehnt.');
      }
    }

    const order = await this.deps.generation.order(request, log);
    if (order.entry.form !== 'docusign') {
      throw notFound(`${order.entry.key} ist kein Dokument zur elektronischen Unterschrift.`);
    }
    const dataList = order.dataList as EsignatureDataList;
    const document = await this.deps.generation.generateOrder(order, log);
    const sender = {
      name: dataList.Absender_UserName ?? user.name,
      email: dataList.Absender_Email ?? user.email,
    };
    const subject = `Bitte unterschreiben: ${document.fileName.replace(/\.docx$/i, '')}`.slice(
      0,
      SUBJECT_MAX,
    );
    const recipients = await this.withCountersigner(
      order.entry,
      order.data,
      recipientsFromDataList(dataList),
    );
    const documentSha256 = sha256Hex(document.content);
    const { id, existing } = await envelopes.create({
      documentId: document.id,
      documentVersion: 1,
      documentSha256,
      matchId: order.matchId,
      customer: typeof order.data.kunde === 'string' ? order.data.kunde : '',
      docKey: order.entry.key,
      provider: provider.kind,
      subject,
      message: '',
      sender,
      recipients,
      createdBy: actor,
      requestKey,
    });
    // A second request with the same key passed the check above while the first was rendering:
    // the first one creates the envelope at the provider, this one must not.
    if (existing) throw envelopeInProgress();
    if (await this.heldForApproval(id)) return this.ourSenderView(id);

    let externalId: string;
    try {
      ({ externalId } = await provider.createEnvelope({
        id,
        entry: order.entry,
        matchId: order.matchId,
        document: { fileName: document.fileName, content: document.content, sha256: documentSha256 },
        data: order.data,
        sender,
        recipients,
        subject,
        message: '',
      }));
    } catch (error) {
      await envelopes.markFailed(id, error instanceof Error ? error.message : String(error), actor);
      // The provider surely made nothing of a passing failure: the browser's retry of this click
      // may try again. The failed attempt keeps its record.
      const passing = !(error instanceof SignatureProviderError) || error.retryable;
      if (requestKey && passing) await envelopes.releaseFailedRequestKey(user.email, requestKey);
      throw providerProblem(error, log);
    }
    await envelopes.setExternalId(id, externalId);
    return this.senderView({ id, externalId }, log);
  }

  /** DocuSign mode: whether the rules ask for an approval before the envelope may reach DocuSign. */
  private async heldForApproval(id: string): Promise<boolean> {
    const gate = this.deps.approvalGate;
    if (!gate || this.deps.provider.kind !== 'docusign') return false;
    return (await gate.evaluate(id)).reasons.length > 0;
  }

  private ourSenderView(id: string): string {
    return `${this.deps.publicUrl}/signatur/${id}`;
  }

  /**
   * Built-in signing: the sender chooses the countersigner in our sender view before sending. DocuSign's
   * envelope is sent from DocuSign's sender view, so its countersigner is in it from the start (the
   * sender may still change them there): last among the signers, or first where the template says so.
   */
  private async withCountersigner(
    entry: Parameters<Countersignature['proposed']>[0],
    data: Parameters<Countersignature['proposed']>[1],
    recipients: RecipientInput[],
  ): Promise<RecipientInput[]> {
    if (this.deps.provider.kind !== 'docusign') return recipients;
    return docusignRecipientsWith(
      recipients,
      await this.deps.countersignature.proposed(entry, data, recipients),
    );
  }

  /** The sender view of an envelope the provider has; failing here leaves the envelope for a retry. */
  private async senderView(
    envelope: { id: string; externalId: string },
    log: FastifyBaseLogger,
  ): Promise<string> {
    try {
      return await this.deps.provider.senderViewUrl(envelope, `${this.deps.publicUrl}/start`);
    } catch (error) {
      throw providerProblem(error, log);
    }
  }
}

/** Retryable provider trouble is 503 (the browser retries); a refusal is 422 with its German reason. */
function providerProblem(error: unknown, log: FastifyBaseLogger): unknown {
  if (!(error instanceof SignatureProviderError)) return error;
  log.warn({ err: error, detail: error.providerDetail }, 'signature provider failed');
  return error.retryable
    ? new HttpError(503, 'signature_unavailable', error.message)
    : new HttpError(422, 'signature_rejected', error.message);
}
