import {
  catalogueEntry,
  type DataList,
  type SendEnvelopeRequest,
  type TemplateData,
} from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import { findMatch } from '../../matches/match-lookup.js';
import type { MatchSource } from '../../matches/match-source.js';
import { HttpError } from '../../shared/http-error.js';
import { type CompanyData, templateDataFor, UnknownSignatoryError } from '../../templates/companies.js';
import type { ApprovalGate, ApprovedSender } from '../approval-gate.js';
import { type Countersignature, docusignRecipientsWith } from '../countersignature.js';
import type { Actor, EnvelopesRepository, Executor } from '../envelopes-repository.js';
import type { SignatureProvider } from '../signature-provider.js';
import { type EnvelopeDraft, SignatureProviderError } from '../signature-provider.js';
import { EnvelopeStateProblem } from '../signing-problems.js';

/** Marks a held DocuSign draft whose approved send was handed to DocuSign (provider_status). */
export const SEND_STARTED = 'approval_send_started';

/**
 * The approved send's problem when an earlier attempt was handed to DocuSign without an answer. The send
 * stays failed until a person checked DocuSign and confirmed that the envelope is not there
 * (`POST /backend/approvals/{id}/send-again`, approvals/approval-sends.ts).
 */
export const SEND_UNCERTAIN_MESSAGE =
  'Der Versand an DocuSign wurde unterbrochen; ob DocuSign den Umschlag erhalten hat, ist unklar. Bitte prüfe es in DocuSign, bevor du ihn noch einmal sendest.';

export interface DocusignApprovedSenderDeps {
  db: Db;
  envelopes: EnvelopesRepository;
  provider: SignatureProvider;
  gate: ApprovalGate;
  countersignature: Countersignature;
  /** A server template's text tabs: the document's data is made again from its dataList and the match. */
  matches: MatchSource;
  companyData: CompanyData;
  log: FastifyBaseLogger;
}

/**
 * DocuSign mode's send of an approved envelope. An envelope that needs an approval is held here as a
 * draft (create-envelope.ts does not create it at DocuSign); once approved, it is created at DocuSign
 * already sent (`status: sent`), with the recipients, subject and message the requester asked for.
 *
 * DocuSign knows no idempotency key, so exactly once is kept as "at most once": the start of the call is
 * committed first; a run that finds a started call without DocuSign's answer (the process died while
 * DocuSign answered, or DocuSign did not answer in time) does not call again but reports the send as
 * failed and uncertain, for a person to look in DocuSign and then release it (`send-again`, see
 * approvals/approval-sends.ts).
 */
export class DocusignApprovedSender implements ApprovedSender {
  constructor(private readonly deps: DocusignApprovedSenderDeps) {}

  async sendApproved(
    envelopeId: string,
    request: SendEnvelopeRequest,
    actor: Actor,
    approvalId: string | undefined,
    onSent: (trx: Executor) => Promise<void>,
  ): Promise<void> {
    const { db, envelopes, gate } = this.deps;
    const evaluation = await gate.evaluate(envelopeId);
    // Before the call is marked as started: a CRM that cannot answer now leaves the send to retry.
    const { match_id: matchId } = await db
      .selectFrom('envelopes')
      .select('match_id')
      .where('id', '=', envelopeId)
      .executeTakeFirstOrThrow();
    const match = await findMatch(this.deps.matches, matchId, this.deps.log);
    if (!match) {
      throw new HttpError(
        422,
        'match_unknown',
        `Das Match ${matchId} gibt es im CRM nicht mehr; der Umschlag kann nicht versendet werden.`,
      );
    }
    const prepared = await db.transaction().execute(async (trx) => {
      const envelope = await envelopes.withFileName(envelopeId, trx, { lock: true });
      if (envelope.status !== 'created' || envelope.external_id) {
        throw new EnvelopeStateProblem('Dieser Umschlag wurde bereits versendet oder beendet.');
      }
      if (envelope.provider_status === SEND_STARTED) {
        throw new HttpError(409, 'send_uncertain', SEND_UNCERTAIN_MESSAGE);
      }
      await gate.assertSendable(envelopeId, evaluation, trx, approvalId);
      const countersigner = await this.deps.countersignature.countersigner(envelope.doc_key, request, trx);
      const version = await trx
        .selectFrom('envelopes')
        .innerJoin('document_versions', (join) =>
          join
            .onRef('document_versions.document_id', '=', 'envelopes.document_id')
            .onRef('document_versions.version', '=', 'envelopes.document_version'),
        )
        .innerJoin('documents', 'documents.id', 'envelopes.document_id')
        .select([
          'document_versions.content',
          'document_versions.sha256',
          'documents.data',
          'documents.created_at',
        ])
        .where('envelopes.id', '=', envelopeId)
        .executeTakeFirstOrThrow();
      const entry = catalogueEntry(envelope.doc_key);
      if (!entry) throw new HttpError(422, 'unknown_document', 'Diesen Dokumenttyp gibt es nicht mehr.');
      // The data the document was rendered from, made again as generation made it (its stored dataList,
      // the match, the company, the document's date): a DocuSign server template's text tabs are filled
      // from it, as at a direct send.
      let data: TemplateData;
      try {
        data = templateDataFor(
          entry,
          match,
          version.data as DataList,
          this.deps.companyData,
          version.created_at,
        );
      } catch (error) {
        if (!(error instanceof UnknownSignatoryError)) throw error;
        throw new HttpError(422, 'unknown_signatory', error.message);
      }
      await trx
        .updateTable('envelopes')
        .set({ provider_status: SEND_STARTED })
        .where('id', '=', envelopeId)
        .execute();
      return { envelope, countersigner, version, entry, data };
    });
    const { envelope, countersigner, version, entry, data } = prepared;
    // Placed as built-in signing places them (first or last, as the template's order says); the copies
    // go out with the last signing step.
    const recipients = docusignRecipientsWith(request.recipients, countersigner);
    const { externalId } = await this.createAtDocusign(envelopeId, {
      id: envelopeId,
      entry,
      matchId: envelope.match_id,
      document: {
        fileName: envelope.file_name,
        content: Buffer.from(version.content),
        sha256: version.sha256,
      },
      // A DocuSign server template's text tabs are filled from the data the document was rendered
      // from, as the direct send fills them (kept with the document).
      data,
      sender: { name: envelope.sender_name, email: envelope.sender_email },
      recipients,
      subject: request.subject,
      message: request.message,
      send: true,
    });
    await db.transaction().execute(async (trx) => {
      await envelopes.replaceRecipients(envelopeId, recipients, trx);
      await trx
        .updateTable('envelopes')
        .set({
          external_id: externalId,
          status: 'sent',
          provider_status: 'sent',
          subject: request.subject,
          message: request.message,
        })
        .where('id', '=', envelopeId)
        .execute();
      await envelopes.addEvent(
        {
          envelopeId,
          type: 'sent',
          actor,
          detail: recipients.map((r) => `${r.routingOrder}. ${r.role}: ${r.name} <${r.email}>`).join('; '),
        },
        trx,
      );
      await onSent(trx);
    });
  }

  /**
   * Where DocuSign surely made nothing, the draft is freed: a refusal (it answered 4xx) ends the send
   * (422), and a passing failure (`retryable`: 429 or 5xx after the client's retries, or a connection
   * that failed before the request left) is retried by the approvals' send run. Where the request left
   * and no answer came (a timeout, 504, a dropped connection, an answer we cannot read), the envelope may
   * exist at DocuSign: the send stays marked as started, the next attempt reports it as uncertain.
   */
  private async createAtDocusign(envelopeId: string, draft: EnvelopeDraft) {
    try {
      return await this.deps.provider.createEnvelope(draft);
    } catch (error) {
      if (error instanceof SignatureProviderError && !outcomeUnknown(error)) {
        await this.deps.db
          .updateTable('envelopes')
          .set({ provider_status: null })
          .where('id', '=', envelopeId)
          .execute();
        if (!error.retryable) throw new HttpError(422, 'signature_rejected', error.message);
      }
      throw error;
    }
  }
}

/**
 * The create request reached DocuSign, whose answer is missing or unreadable: docusign-client.ts names
 * such a failure by the request (`POST /…: …`), a refusal by DocuSign's status (`HTTP 400 …`), a failed
 * sign-in by its step (`token: …`).
 */
function outcomeUnknown(error: SignatureProviderError): boolean {
  return !error.retryable && (error.providerDetail ?? '').startsWith('POST ');
}
