import { COUNTERSIGNER_ROLE, ENVELOPE_EVENT_LABELS, RECIPIENT_ROLE_LABELS } from '@vertragsgenerator/domain';
import type { Selectable } from 'kysely';
import type { EnvelopeEventsTable, EnvelopeRecipientsTable } from '../db/schema.js';
import type { CertificateInput, CertificateSigner } from './certificate.js';

/** What the certificate needs of the completed envelope. */
export interface EnvelopeForCertificate {
  id: string;
  subject: string;
  match_id: string;
  doc_key: string;
  file_name: string;
  document_sha256: string;
  sender_name: string;
  sender_email: string;
  created_at: Date;
}

/**
 * The completion certificate's content from the envelope's records: every signer with the evidence of
 * their signature, the copies, and the audit trail ending with the completion itself.
 */
export function certificateInput(
  envelope: EnvelopeForCertificate,
  recipients: Selectable<EnvelopeRecipientsTable>[],
  events: Selectable<EnvelopeEventsTable>[],
  documentSize: number,
  completedAt: Date,
): CertificateInput {
  const signers = recipients.filter((r) => r.role !== 'CC');
  const copies = recipients.filter((r) => r.role === 'CC');
  return {
    envelopeId: envelope.id,
    subject: envelope.subject,
    matchId: envelope.match_id,
    docKey: envelope.doc_key,
    document: { fileName: envelope.file_name, sha256: envelope.document_sha256, size: documentSize },
    sender: { name: envelope.sender_name, email: envelope.sender_email },
    createdAt: envelope.created_at,
    completedAt,
    // Without a countersignatory the seal is the company's only mark on the envelope.
    companySealOnly: !signers.some((s) => s.role === COUNTERSIGNER_ROLE),
    approval: approvalOf(events),
    signers: signers.map((s) => ({
      role: RECIPIENT_ROLE_LABELS[s.role],
      name: s.name,
      function: s.signatory_function ?? null,
      email: s.email,
      typedName: s.typed_name ?? s.name,
      signedAt: s.signed_at ?? completedAt,
      ip: s.signed_ip,
      userAgent: s.signed_user_agent,
      drawnSignaturePng: s.drawn_signature,
      verification: confirmedCode(s, events),
    })),
    copies: copies.map((c) => ({ name: c.name, email: c.email })),
    events: [
      ...events.map((e) => ({ at: e.at, type: e.type, actor: e.actor, ip: e.ip })),
      { at: completedAt, type: 'completed' as const, actor: '', ip: null },
    ].map(({ type, ...event }) => ({ ...event, label: ENVELOPE_EVENT_LABELS[type] })),
  };
}

/**
 * The code the signer confirmed for the link they signed with: their last `verified` event (a renewed
 * link asks again). Its actor is the address the code went to.
 */
function confirmedCode(
  signer: Selectable<EnvelopeRecipientsTable>,
  events: Selectable<EnvelopeEventsTable>[],
): CertificateSigner['verification'] {
  const confirmed = events.filter((e) => e.type === 'verified' && e.recipient_id === signer.id).at(-1);
  return confirmed ? { email: confirmed.actor, at: confirmed.at, ip: confirmed.ip } : null;
}

/**
 * The approval the envelope was sent under (Freigabe): its last `approved` event, whose detail names the
 * approver (`Name <e-mail>: comment`) and whose actor is their address.
 */
function approvalOf(events: Selectable<EnvelopeEventsTable>[]): CertificateInput['approval'] {
  const approved = events.filter((e) => e.type === 'approved').at(-1);
  if (!approved) return null;
  const named = approved.detail?.split(': ')[0];
  return { by: named || approved.actor, at: approved.at };
}
