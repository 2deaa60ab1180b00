import { catalogueEntry, type SendEnvelopeRequest } from '@vertragsgenerator/domain';
import type { Db } from '../../db/database.js';
import { HttpError } from '../../shared/http-error.js';
import type { ApprovalGate, ApprovedSender } from '../approval-gate.js';
import type { Countersignature } from '../countersignature.js';
import type { Actor, EnvelopesRepository, Executor } from '../envelopes-repository.js';
import type { SignatureProvider } from '../signature-provider.js';
import { type EnvelopeDraft, SignatureProviderError } from '../signature-provider.js';
import { EnvelopeStateProblem } from '../signing-problems.js';

/** Marks a held DocuSign draft whose approved send was handed to DocuSign (provider_status). */
const SEND_STARTED = 'approval_send_started';

export interface DocusignApprovedSenderDeps {
  db: Db;
  envelopes: EnvelopesRepository;
  provider: SignatureProvider;
  gate: ApprovalGate;
  countersignature: Countersignature;
}

/**
 * DocuSign mode's send of an approved envelope. An envelope that needs an approval is held here as a
 * draft (create-envelope.ts does not create it at DocuSign); once approved, it is created at DocuSign
 * already sent (`status: sent`), with the recipients, subject and message the requester asked for.
 *
 * DocuSign knows no idempotency key, so exactly once is kept as "at most once": the start of the call is
 * committed first; a run that finds a started call without DocuSign's answer (the process died while
 * DocuSign answered) does not call again but reports the send as failed, for a person to look in DocuSign.
 */
export class DocusignApprovedSender implements ApprovedSender {
  constructor(private readonly deps: DocusignApprovedSenderDeps) {}

  async sendApproved(
    envelopeId: string,
    request: SendEnvelopeRequest,
    actor: Actor,
    approvalId: string,
    onSent: (trx: Executor) => Promise<void>,
  ): Promise<void> {
    const { db, envelopes, gate } = this.deps;
    const evaluation = await gate.evaluate(envelopeId);
    const prepared = await db.transaction().execute(async (trx) => {
      const envelope = await envelopes.withFileName(envelopeId, trx, { lock: true });
      if (envelope.status !== 'created' || envelope.external_id) {
        throw new EnvelopeStateProblem('Dieser Umschlag wurde bereits versendet oder beendet.');
      }
      if (envelope.provider_status === SEND_STARTED) {
        throw new HttpError(
          409,
          'send_uncertain',
          'Der Versand an DocuSign wurde unterbrochen; ob DocuSign den Umschlag erhalten hat, ist unklar. Bitte prüfe es in DocuSign, bevor du ihn noch einmal sendest.',
        );
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
        .select(['document_versions.content', 'document_versions.sha256'])
        .where('envelopes.id', '=', envelopeId)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('envelopes')
        .set({ provider_status: SEND_STARTED })
        .where('id', '=', envelopeId)
        .execute();
      return { envelope, countersigner, version };
    });
    const { envelope, countersigner, version } = prepared;
    const entry = catalogueEntry(envelope.doc_key);
    if (!entry) throw new HttpError(422, 'unknown_document', 'Diesen Dokumenttyp gibt es nicht mehr.');
    const signers = request.recipients.filter((r) => r.role !== 'CC');
    const copies = request.recipients.filter((r) => r.role === 'CC');
    const recipients = countersigner
      ? [
          ...signers,
          {
            role: countersigner.role,
            name: countersigner.name,
            email: countersigner.email,
            routingOrder: countersigner.routingOrder,
          },
          ...copies.map((c) => ({ ...c, routingOrder: countersigner.routingOrder })),
        ]
      : request.recipients;
    const { externalId } = await this.createAtDocusign(envelopeId, {
      id: envelopeId,
      entry,
      matchId: envelope.match_id,
      document: {
        fileName: envelope.file_name,
        content: Buffer.from(version.content),
        sha256: version.sha256,
      },
      // A DocuSign server template's text tabs are filled from the rendered data, which is not kept:
      // approved envelopes of such keys go out with the tabs as the template has them.
      data: {} as never,
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
   * A refusal (DocuSign answered and made nothing) frees the draft for another try; anything else leaves
   * the send marked as started, which the next attempt reports instead of calling again.
   */
  private async createAtDocusign(envelopeId: string, draft: EnvelopeDraft) {
    try {
      return await this.deps.provider.createEnvelope(draft);
    } catch (error) {
      if (error instanceof SignatureProviderError && !error.retryable) {
        await this.deps.db
          .updateTable('envelopes')
          .set({ provider_status: null })
          .where('id', '=', envelopeId)
          .execute();
        throw new HttpError(422, 'signature_rejected', error.message);
      }
      throw error;
    }
  }
}
