import { DOCX_MIME_TYPE } from '@vertragsgenerator/domain';
import { PDFDocument } from 'pdf-lib';
import type { Timestamping } from './document-timestamp.js';
import type { SealCertificate } from './seal-certificate.js';
import { type SealedPdf, sealPdf } from './seal-pdf.js';

export interface EnvelopeToSeal {
  envelopeId: string;
  matchId: string;
  subject: string;
  /** The completion certificate (certificate.ts): the audit trail with every signature. */
  certificate: Uint8Array;
  /** The signed document as the signers saw it. */
  document: { fileName: string; content: Uint8Array };
  /** The document's pages with every signature in its block (signed-contract-pages.ts); null without LibreOffice. */
  contract: Uint8Array | null;
  completedAt: Date;
}

/**
 * The one PDF that proves a completed envelope: the contract's pages with each signature in its block
 * (where LibreOffice rendered the document), the certificate pages, and the signed DOCX embedded as a
 * file attachment, so the package is complete without anything else, then sealed by the server.
 * Changing a page or the attachment afterwards breaks the seal. With `timestamping` the seal is B-LTA.
 */
export async function sealedEnvelopePdf(
  envelope: EnvelopeToSeal,
  {
    seal,
    publicUrl,
    sealedAt,
    timestamping,
  }: { seal: SealCertificate; publicUrl: string; sealedAt: Date; timestamping?: Timestamping | undefined },
): Promise<SealedPdf> {
  const pdf = await withContractPages(envelope);
  pdf.setTitle(envelope.subject);
  pdf.setSubject(`Umschlag ${envelope.envelopeId} · ${envelope.matchId}`);
  pdf.setKeywords([`envelope:${envelope.envelopeId}`, `match:${envelope.matchId}`]);
  pdf.setProducer('Vertragsgenerator');
  await pdf.attach(envelope.document.content, envelope.document.fileName, {
    mimeType: DOCX_MIME_TYPE,
    description: 'Das unterschriebene Dokument',
    creationDate: envelope.completedAt,
    modificationDate: envelope.completedAt,
  });
  return sealPdf(
    await pdf.save(),
    seal,
    {
      reason: `Von allen unterschrieben: ${envelope.subject}`,
      location: publicUrl,
      contact: publicUrl,
      signingTime: sealedAt,
    },
    timestamping,
  );
}

/** The contract's pages followed by the certificate's; the certificate alone without a contract. */
async function withContractPages({ contract, certificate }: EnvelopeToSeal): Promise<PDFDocument> {
  if (!contract) return PDFDocument.load(certificate);
  const pdf = await PDFDocument.load(contract);
  const certificatePages = await PDFDocument.load(certificate);
  for (const page of await pdf.copyPages(certificatePages, certificatePages.getPageIndices()))
    pdf.addPage(page);
  return pdf;
}
