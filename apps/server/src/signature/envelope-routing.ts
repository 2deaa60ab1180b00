import type { MailOutbox, OutgoingMail } from '../mail/mail-outbox.js';
import type { CertificateInput } from './certificate.js';
import { certificateInput } from './certificate-input.js';
import type { EnvelopesRepository, Executor } from './envelopes-repository.js';
import { negotiationRounds } from './negotiation.js';
import type { EnvelopeWithFileName, SigningLinks } from './signing-links.js';
import { invitationMail } from './signing-mails.js';

/** What moving an envelope on found: signers invited now, signers already invited, or everyone signed. */
export type RoutingStep = 'invited' | 'waiting' | 'all_signed';

export interface EnvelopeRoutingDeps {
  envelopes: EnvelopesRepository;
  outbox: MailOutbox;
  links: SigningLinks;
  renderCertificate: (input: CertificateInput) => Promise<Uint8Array>;
  now: () => Date;
}

/**
 * The routing of a built-in envelope, inside the transaction of the step that moves it on: who is
 * invited next (signers of one routing order at a time, CC never), whether everyone has signed, and
 * the completion with its certificate. Both the sender's `Senden` and a signer's `Unterschreiben` move
 * an envelope on, so both sides of built-in signing use it.
 */
export class EnvelopeRouting {
  constructor(private readonly deps: EnvelopeRoutingDeps) {}

  /**
   * Invites the signers of the lowest routing order that has not signed yet, if none of them is
   * invited yet; everyone signed once no signer is left (CC never signs).
   */
  async inviteNextSigners(envelopeId: string, trx: Executor): Promise<RoutingStep> {
    const recipients = await this.deps.envelopes.recipients(envelopeId, trx);
    const pending = recipients.filter((r) => r.role !== 'CC' && r.status !== 'signed');
    if (pending.length === 0) return 'all_signed';
    const order = Math.min(...pending.map((r) => r.routing_order));
    const due = pending.filter((r) => r.routing_order === order && r.status === 'waiting');
    if (due.length === 0) return 'waiting';
    const envelope = await trx
      .selectFrom('envelopes')
      .select(['subject', 'message', 'sender_name', 'sender_email'])
      .where('id', '=', envelopeId)
      .executeTakeFirstOrThrow();
    const mails: OutgoingMail[] = [];
    for (const recipient of due) {
      await trx
        .updateTable('envelope_recipients')
        .set({ status: 'sent' })
        .where('id', '=', recipient.id)
        .execute();
      const { url, expiresAt } = await this.deps.links.issue(recipient, trx);
      mails.push(invitationMail({ ...envelope, id: envelopeId }, recipient, url, expiresAt));
    }
    await this.deps.outbox.enqueue(mails, trx);
    return 'invited';
  }

  /** Everyone signed: the certificate is made and stored, and the envelope is due for its seal. */
  async complete(envelope: EnvelopeWithFileName, trx: Executor): Promise<void> {
    const completedAt = this.deps.now();
    const [recipients, events, version, negotiation] = await Promise.all([
      this.deps.envelopes.recipients(envelope.id, trx),
      trx
        .selectFrom('envelope_events')
        .selectAll()
        .where('envelope_id', '=', envelope.id)
        .orderBy('id')
        .execute(),
      this.documentVersion(envelope, trx),
      negotiationRounds(envelope.document_id, trx),
    ]);
    const certificate = await this.deps.renderCertificate({
      ...certificateInput(envelope, recipients, events, version.content.byteLength, completedAt),
      negotiation,
    });
    // Due for sealing: the sealer makes the sealed PDF and only then mails everyone (seal/envelope-sealer.ts).
    await trx
      .updateTable('envelopes')
      .set({ status: 'completed', completed_at: completedAt, certificate, seal_due_at: completedAt })
      .where('id', '=', envelope.id)
      .execute();
    await this.deps.envelopes.addEvent(
      { envelopeId: envelope.id, type: 'completed', actor: { email: '', ip: null, userAgent: null } },
      trx,
    );
  }

  documentVersion(envelope: { document_id: string; document_version: number }, trx: Executor) {
    return trx
      .selectFrom('document_versions')
      .select('content')
      .where('document_id', '=', envelope.document_id)
      .where('version', '=', envelope.document_version)
      .executeTakeFirstOrThrow();
  }
}
