import {
  formatDateTime,
  type SendEnvelopeRequest,
  type SignEnvelopeRequest,
  type SigningOtpMode,
  type SigningView,
} from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import type { MailOutbox } from '../mail/mail-outbox.js';
import { HttpError } from '../shared/http-error.js';
import type { ApprovalGate, ApprovedSender } from './approval-gate.js';
import type { CertificateInput } from './certificate.js';
import { type Countersignature, recipientsWith } from './countersignature.js';
import { EnvelopeRouting } from './envelope-routing.js';
import type { Actor, EnvelopesRepository, Executor } from './envelopes-repository.js';
import { assertNotUnderReview } from './negotiation.js';
import type { EnvelopeSealer } from './seal/envelope-sealer.js';
import type { EnvelopeDraft, SignatureProvider } from './signature-provider.js';
import type { SigningLinks } from './signing-links.js';
import { declinedMails, invitationMail, voidedMail } from './signing-mails.js';
import { EnvelopeStateProblem } from './signing-problems.js';
import { decodePng, signingView } from './signing-view.js';
import { SignerVerification } from './verification/signer-verification.js';
import { SigningCodeStep } from './verification/signing-code-step.js';
import { lockWaitingSigner } from './waiting-signer.js';

export interface BuiltinSigningDeps {
  db: Db;
  envelopes: EnvelopesRepository;
  outbox: MailOutbox;
  publicUrl: string;
  /** The signers' links, on the same clock as this. */
  links: SigningLinks;
  renderCertificate: (input: CertificateInput) => Promise<Uint8Array>;
  /** Seals a completed envelope and mails it; started once the completion is committed. */
  sealer: Pick<EnvelopeSealer, 'sealSoon'>;
  /** SIGNING_OTP: whether signers confirm a code mailed to them before the document opens. */
  signerCode: SigningOtpMode;
  /** Keys the HMAC the signers' codes are kept as (the signing-link key). */
  codeKey: Buffer;
  /** Who may countersign for the company, and whether an envelope may go out without. */
  countersignature: Countersignature;
  /** Freigabe: refuses a send that needs an approval it does not have; absent, every send may go. */
  approvalGate?: ApprovalGate;
  now?: () => Date;
}

/**
 * Built-in signing, the embedded default signature provider: the envelope is ours, the sender view
 * and the signing pages are part of the app, and signers (customers and project partners, without an
 * account) sign through a personal link mailed to them in routing order. Every state change runs in
 * one transaction with its event and its mails (queued in the outbox), under a row lock on the
 * envelope, so two signers acting at once never skip a routing step or complete twice.
 */
export class BuiltinSigning implements SignatureProvider, ApprovedSender {
  readonly kind = 'builtin' as const;
  private readonly now: () => Date;

  private readonly links: SigningLinks;
  private readonly routing: EnvelopeRouting;
  private readonly verification: SignerVerification;
  /** `Code senden` and `Bestätigen` on the signing page. */
  readonly codeStep: SigningCodeStep;

  constructor(private readonly deps: BuiltinSigningDeps) {
    this.now = deps.now ?? (() => new Date());
    this.links = deps.links;
    this.routing = new EnvelopeRouting({ ...deps, now: this.now });
    this.verification = new SignerVerification({ mode: deps.signerCode, key: deps.codeKey, now: this.now });
    this.codeStep = new SigningCodeStep({ ...deps, verification: this.verification });
  }

  /** Our own record is the envelope: nothing to create elsewhere. */
  async createEnvelope(draft: EnvelopeDraft): Promise<{ externalId: string }> {
    return { externalId: draft.id };
  }

  async senderViewUrl(envelope: { id: string }): Promise<string> {
    return `${this.deps.publicUrl}/signatur/${envelope.id}`;
  }

  /** `Senden`: stores the sender's final recipients, subject and message and invites the first signers. */
  async send(envelopeId: string, request: SendEnvelopeRequest, actor: Actor): Promise<void> {
    await this.sendChecked(envelopeId, request, actor);
  }

  /** The send of an approved envelope (Freigabe): `onSent` records it in the same transaction. */
  async sendApproved(
    envelopeId: string,
    request: SendEnvelopeRequest,
    actor: Actor,
    approvalId: string | undefined,
    onSent: (trx: Executor) => Promise<void>,
  ): Promise<void> {
    await this.sendChecked(envelopeId, request, actor, { approvalId, onSent });
  }

  private async sendChecked(
    envelopeId: string,
    request: SendEnvelopeRequest,
    actor: Actor,
    approved?: { approvalId: string | undefined; onSent: (trx: Executor) => Promise<void> },
  ): Promise<void> {
    const gate = this.deps.approvalGate;
    // The gate reads the match (maybe from the CRM) before the transaction, never while it is open.
    const evaluation = gate && (await gate.evaluate(envelopeId));
    await this.deps.db.transaction().execute(async (trx) => {
      const envelope = await this.lockEnvelope(envelopeId, trx);
      if (envelope.status !== 'created') {
        throw new EnvelopeStateProblem('Dieser Umschlag wurde bereits versendet oder beendet.');
      }
      if (gate && evaluation) await gate.assertSendable(envelopeId, evaluation, trx, approved?.approvalId);
      await assertNotUnderReview(envelope.document_id, trx);
      const signerCode = this.verification.choice(request.signerCode);
      if (signerCode === null) {
        const message = 'Der Bestätigungscode per E-Mail ist für alle Unterzeichner vorgeschrieben.';
        throw new HttpError(400, 'invalid_input', message, { signerCode: [message] });
      }
      const countersigner = await this.deps.countersignature.countersigner(envelope.doc_key, request, trx);
      const recipients = recipientsWith(request.recipients, countersigner);
      await this.deps.envelopes.replaceRecipients(envelopeId, recipients, trx);
      if (countersigner) {
        await trx
          .updateTable('envelope_recipients')
          .set({ signatory_function: countersigner.function })
          .where('envelope_id', '=', envelopeId)
          .where('role', '=', countersigner.role)
          .execute();
      }
      await trx
        .updateTable('envelopes')
        .set({ status: 'sent', subject: request.subject, message: request.message, signer_code: signerCode })
        .where('id', '=', envelopeId)
        .execute();
      await this.deps.envelopes.addEvent(
        {
          envelopeId,
          type: 'sent',
          actor,
          detail: [
            ...recipients.map((r) => `${r.routingOrder}. ${r.role}: ${r.name} <${r.email}>`),
            ...(countersigner ? [] : ['ohne Gegenzeichnung (für die Firma versiegelt)']),
          ].join('; '),
        },
        trx,
      );
      await this.routing.inviteNextSigners(envelopeId, trx);
      if (approved) await approved.onSent(trx);
    });
    this.deps.outbox.deliverSoon();
  }

  /** `Verwerfen`: ends a draft or a sent envelope; signers who already got a link are told. */
  async voidEnvelope(envelopeId: string, reason: string, actor: Actor): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const envelope = await this.lockEnvelope(envelopeId, trx);
      if (envelope.status !== 'created' && envelope.status !== 'sent') {
        throw new EnvelopeStateProblem(
          'Dieser Umschlag ist bereits beendet und kann nicht verworfen werden.',
        );
      }
      await trx.updateTable('envelopes').set({ status: 'voided' }).where('id', '=', envelopeId).execute();
      await this.deps.envelopes.addEvent({ envelopeId, type: 'voided', actor, detail: reason || null }, trx);
      const invited = (await this.deps.envelopes.recipients(envelopeId, trx)).filter(
        (r) => r.status === 'sent' || r.status === 'opened',
      );
      await this.deps.outbox.enqueue(
        invited.map((r) => voidedMail({ ...envelope, id: envelopeId }, r, reason)),
        trx,
      );
    });
    this.deps.outbox.deliverSoon();
  }

  /**
   * `Link erneuern`: a signer who was invited and has not signed (their link expired, or the mail was
   * lost) gets a new link valid for SIGNING_LINK_DAYS; the old one stops working at once.
   */
  async renewLink(envelopeId: string, recipientId: string, actor: Actor): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const { envelope, recipient } = await lockWaitingSigner(
        this.deps.envelopes,
        { envelopeId, recipientId },
        trx,
        'es gibt keinen neuen Link',
      );
      const { url, expiresAt } = await this.links.issue(recipient, trx);
      await this.deps.envelopes.addEvent(
        {
          envelopeId,
          recipientId: recipient.id,
          type: 'link_renewed',
          actor,
          detail: `Neuer Link für ${recipient.name} <${recipient.email}>, gültig bis ${formatDateTime(expiresAt)} Uhr`,
        },
        trx,
      );
      await this.deps.outbox.enqueue(
        [invitationMail({ ...envelope, id: envelopeId }, recipient, url, expiresAt)],
        trx,
      );
    });
    this.deps.outbox.deliverSoon();
  }

  /** The sender view's code setting of a built-in envelope; undefined for an unknown one. */
  async signerCodeSetting(envelopeId: string) {
    const envelope = await this.deps.db
      .selectFrom('envelopes')
      .select(['status', 'signer_code'])
      .where('id', '=', envelopeId)
      .executeTakeFirst();
    return envelope && this.verification.setting(envelope);
  }

  /**
   * What a signer sees behind their link; the first visit records `opened`. Until the signer confirmed
   * the code, their address is masked and the sender's message withheld.
   */
  async openLink(token: string, actor: Omit<Actor, 'email'>): Promise<SigningView> {
    return this.deps.db.transaction().execute(async (trx) => {
      const { envelope, recipient } = await this.links.resolve(token, trx);
      if (recipient.status === 'sent') {
        await trx
          .updateTable('envelope_recipients')
          .set({ status: 'opened' })
          .where('id', '=', recipient.id)
          .execute();
        await this.deps.envelopes.addEvent(
          {
            envelopeId: envelope.id,
            recipientId: recipient.id,
            type: 'opened',
            actor: { ...actor, email: recipient.email },
          },
          trx,
        );
      }
      const verification = await this.verification.state(envelope, recipient, trx);
      const view = signingView(envelope, recipient, 'open', verification);
      if (!verification.required || verification.verified) return view;
      return { ...view, message: '', signer: { ...view.signer, email: verification.email } };
    });
  }

  /** The document behind a usable link, once the signer confirmed their code. */
  async linkDocument(token: string): Promise<{ fileName: string; content: Uint8Array }> {
    const { envelope, recipient } = await this.links.resolve(token, this.deps.db);
    await this.verification.assertVerified(envelope, recipient, this.deps.db);
    const version = await this.routing.documentVersion(envelope, this.deps.db);
    return { fileName: envelope.file_name, content: version.content };
  }

  /** `Unterschreiben`: records the signature; then invites the next signers or completes the envelope. */
  async sign(token: string, request: SignEnvelopeRequest, actor: Omit<Actor, 'email'>): Promise<SigningView> {
    const drawn = request.drawnSignature ? decodePng(request.drawnSignature) : null;
    let completed = false;
    const view = await this.deps.db.transaction().execute(async (trx) => {
      const { envelope, recipient } = await this.links.resolve(token, trx, { lock: true });
      await this.verification.assertVerified(envelope, recipient, trx);
      const verification = await this.verification.state(envelope, recipient, trx);
      const signedAt = this.now();
      await trx
        .updateTable('envelope_recipients')
        .set({
          status: 'signed',
          signed_at: signedAt,
          typed_name: request.typedName,
          drawn_signature: drawn,
          signed_ip: actor.ip,
          signed_user_agent: actor.userAgent,
        })
        .where('id', '=', recipient.id)
        .execute();
      await this.deps.envelopes.addEvent(
        {
          envelopeId: envelope.id,
          recipientId: recipient.id,
          type: 'signed',
          actor: { ...actor, email: recipient.email },
          detail: `Getippter Name: ${request.typedName}${drawn ? '; gezeichnete Unterschrift' : ''}`,
        },
        trx,
      );
      if ((await this.routing.inviteNextSigners(envelope.id, trx)) === 'all_signed') {
        await this.routing.complete(envelope, trx);
        completed = true;
      }
      return signingView(envelope, recipient, 'signed', verification);
    });
    this.deps.outbox.deliverSoon();
    // Only a completion has something to seal; the periodic run catches anything left over.
    if (completed) this.deps.sealer.sealSoon();
    return view;
  }

  /** `Ablehnen`: ends the envelope and tells the sender why. */
  async decline(token: string, reason: string, actor: Omit<Actor, 'email'>): Promise<SigningView> {
    const view = await this.deps.db.transaction().execute(async (trx) => {
      const { envelope, recipient } = await this.links.resolve(token, trx, { lock: true });
      await this.verification.assertVerified(envelope, recipient, trx);
      const verification = await this.verification.state(envelope, recipient, trx);
      await trx
        .updateTable('envelope_recipients')
        .set({
          status: 'declined',
          decline_reason: reason,
          signed_ip: actor.ip,
          signed_user_agent: actor.userAgent,
        })
        .where('id', '=', recipient.id)
        .execute();
      await trx.updateTable('envelopes').set({ status: 'declined' }).where('id', '=', envelope.id).execute();
      await this.deps.envelopes.addEvent(
        {
          envelopeId: envelope.id,
          recipientId: recipient.id,
          type: 'declined',
          actor: { ...actor, email: recipient.email },
          detail: reason,
        },
        trx,
      );
      await this.deps.outbox.enqueue(
        declinedMails(envelope, recipient, reason, `${this.deps.publicUrl}/signatur/${envelope.id}`),
        trx,
      );
      return signingView(envelope, recipient, 'declined', verification);
    });
    this.deps.outbox.deliverSoon();
    return view;
  }

  private lockEnvelope(envelopeId: string, trx: Executor) {
    return this.deps.envelopes.withFileName(envelopeId, trx, { lock: true });
  }
}
