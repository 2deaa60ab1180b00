import { DOCX_MIME_TYPE } from '@vertragsgenerator/domain';
import type { OutgoingMail } from '../../mail/mail-outbox.js';
import { staffAddresses, uniqueByEmail } from '../mail-parties.js';

export interface CompletedEnvelope {
  id: string;
  subject: string;
  file_name: string;
  document_sha256: string;
  sender_email: string;
  created_by: string;
}

/** The signed PDF's file name, as the mail and the history offer it. */
export const sealedFileName = (fileName: string) =>
  `${fileName.replace(/\.docx$/i, '')} - unterschrieben.pdf`;

/**
 * The mail that ends an envelope, to every signer, the copies, the sender and the creator: the sealed
 * PDF (certificate, signatures, the document inside) and the document itself as DOCX.
 */
export function completionMails(
  envelope: CompletedEnvelope,
  recipients: { name: string; email: string; role: string }[],
  files: { document: Uint8Array; sealedPdf: Uint8Array },
): OutgoingMail[] {
  const signers = recipients.filter((r) => r.role !== 'CC');
  const attachments = [
    { filename: envelope.file_name, contentType: DOCX_MIME_TYPE, content: files.document },
    {
      filename: sealedFileName(envelope.file_name),
      contentType: 'application/pdf',
      content: files.sealedPdf,
    },
  ];
  const parties = uniqueByEmail([
    ...recipients.map((r) => ({ email: r.email, name: r.name })),
    ...staffAddresses(envelope).map((email) => ({ email, name: '' })),
  ]);
  return parties.map((party) => ({
    to: party.email,
    replyTo: envelope.sender_email,
    subject: `Abgeschlossen: ${envelope.subject}`,
    text: [
      party.name ? `Hallo ${party.name},` : 'Hallo,',
      '',
      `das Dokument „${envelope.file_name}“ wurde von allen unterschrieben (${signers.map((s) => s.name).join(', ')}).`,
      'Im Anhang findest du das unterschriebene PDF: das Abschlusszertifikat mit allen Unterschriften und ' +
        'dem Verlauf, das Dokument als Dateianhang darin, digital versiegelt, sodass jede spätere Änderung ' +
        'auffällt. Dazu das Dokument als DOCX.',
      '',
      `SHA-256 des Dokuments: ${envelope.document_sha256}`,
    ].join('\n'),
    attachments,
    reference: `envelope:${envelope.id}`,
  }));
}
