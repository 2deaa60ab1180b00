import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { P12Signer } from '@signpdf/signer-p12';
import { SignPdf } from '@signpdf/signpdf';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { PDFDocument } from 'pdf-lib';
import type { SealCertificate } from './seal-certificate.js';

export interface SealDetails {
  /** Why the document is sealed, shown by PDF readers ("Reason"). */
  reason: string;
  /** The sealing server, shown as "Location": its public address. */
  location: string;
  /** Whom to ask about the seal. */
  contact: string;
  signingTime: Date;
}

/**
 * Room for the CMS signature in the PDF, in bytes: a 2048-bit RSA signature with its certificate and
 * attributes takes about 1.5 kB, a 4096-bit company key with a chain of three certificates under 8 kB.
 */
const SIGNATURE_ROOM = 16_384;

/**
 * Seals a finished PDF: a PAdES signature (SubFilter ETSI.CAdES.detached, SHA-256, the signing time)
 * over every byte but the signature itself. Any later change to the file breaks it, which PDF readers
 * and `pdfsig` show. The PDF must not be changed after this; other pages or attachments go in before.
 */
export async function sealPdf(pdf: Uint8Array, seal: SealCertificate, details: SealDetails): Promise<Buffer> {
  const document = await PDFDocument.load(pdf);
  pdflibAddPlaceholder({
    pdfDoc: document,
    reason: details.reason,
    contactInfo: details.contact,
    name: seal.commonName,
    location: details.location,
    signingTime: details.signingTime,
    signatureLength: SIGNATURE_ROOM,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'Vertragsgenerator',
  });
  // Without object streams: the signature's byte range and contents must stand in the file as written.
  const prepared = Buffer.from(await document.save({ useObjectStreams: false }));
  return new SignPdf().sign(
    prepared,
    new P12Signer(seal.p12, { passphrase: seal.passphrase }),
    details.signingTime,
  );
}
