import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import type { SealLevel } from '@vertragsgenerator/domain';
import { PDFDocument } from 'pdf-lib';
import { CadesSigner } from './cades-signature.js';
import { archiveTimestamp, type Timestamping } from './document-timestamp.js';
import type { SealCertificate } from './seal-certificate.js';

export interface SealDetails {
  /** Why the document is sealed, shown by PDF readers ("Reason"). */
  reason: string;
  /** The sealing server, shown as "Location": its public address. */
  location: string;
  /** Whom to ask about the seal. */
  contact: string;
  /** The time the signature dictionary states (/M); only a timestamp proves it. */
  signingTime: Date;
}

/** A sealed PDF, the PAdES baseline level it reached, and when its archive timestamp must be renewed. */
export interface SealedPdf {
  pdf: Buffer;
  level: SealLevel;
  /** Null below B-LTA: nothing to renew. */
  renewBy: Date | null;
}

/**
 * Room for the CMS signature in the PDF, in bytes: a 2048-bit RSA signature with its certificate and
 * attributes takes about 1.5 kB, a 4096-bit company key with a chain of three certificates under 8 kB,
 * a timestamp token with its TSA's chain up to 8 kB more.
 */
const SIGNATURE_ROOM = 24_576;

/**
 * Seals a finished PDF: a PAdES baseline signature (ETSI.CAdES.detached, SHA-256) over every byte but
 * the signature itself. Without timestamp authorities it is B-B; with them the signature is timestamped
 * (B-T), its certificates and their revocation data go into a DSS (B-LT), and a document timestamp covers
 * the whole (B-LTA). A level that cannot be reached throws: the caller retries rather than keeping a
 * weaker seal than configured. The PDF must not be changed after this except by later archive timestamps.
 */
export async function sealPdf(
  pdf: Uint8Array,
  seal: SealCertificate,
  details: SealDetails,
  timestamping?: Timestamping,
): Promise<SealedPdf> {
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
  const signer = new CadesSigner(
    seal,
    timestamping ? (digest) => timestamping.authorities.timestamp(digest) : undefined,
  );
  const signed = await new SignPdf().sign(prepared, signer, details.signingTime);
  if (!timestamping) return { pdf: signed, level: 'B-B', renewBy: null };
  return archiveTimestamp(signed, timestamping);
}
