import { extractSignature } from '@signpdf/utils';
import { sha256Hex } from '../../shared/sha256.js';
import { pkijsWithEngine, toArrayBuffer } from './pkijs-engine.js';

/** What a PDF's (first) signature says, read and checked with pkijs; no trust in who made it yet. */
export type PdfSignature =
  | { found: false }
  | {
      found: true;
      /** The CMS signature matches the signed bytes under the signer's certificate. */
      valid: boolean;
      /** The signed byte ranges reach the end of the file: nothing was appended after signing. */
      coversWholeFile: boolean;
      /** SHA-256 of the signer's certificate (DER), hex, as `SealCertificate.fingerprint`. */
      fingerprint: string | null;
      commonName: string | null;
    };

const COMMON_NAME = '2.5.4.3';

/**
 * Reads the first signature of a PDF (its /ByteRange and /Contents) and verifies its CMS SignedData
 * over the signed bytes: the digest, and the signature over the signed attributes with the key of the
 * certificate it carries. The certificate chain is not checked: the caller compares the certificate
 * with the seals it knows.
 */
export async function readPdfSignature(pdf: Buffer): Promise<PdfSignature> {
  let extracted: { ByteRange: number[]; signedData: Buffer };
  try {
    extracted = extractSignature(pdf);
  } catch {
    return { found: false };
  }
  const [first = 0, firstLength = 0, start = 0, length = 0] = extracted.ByteRange;
  // /Contents as written between its < >: the DER and the zeros that pad it. Not @signpdf's
  // `signature`, which strips trailing "00" and so cuts off a DER whose last byte is 0 (1 in 256 seals).
  const contents = Buffer.from(
    pdf
      .subarray(first + firstLength + 1, start - 1)
      .toString('latin1')
      .replace(/[^0-9a-fA-F]/g, ''),
    'hex',
  );
  const coversWholeFile = start + length === pdf.length;
  const pkijs = await pkijsWithEngine();
  try {
    // BER reading stops at the end of the DER: the padding after it is left alone.
    const contentInfo = pkijs.ContentInfo.fromBER(toArrayBuffer(contents));
    const signedData = new pkijs.SignedData({ schema: contentInfo.content });
    const certificate = signedData.certificates?.find((c) => c instanceof pkijs.Certificate);
    let valid = false;
    try {
      valid = await signedData.verify({
        signer: 0,
        data: toArrayBuffer(extracted.signedData),
        checkChain: false,
      });
    } catch {
      // pkijs throws for a digest that does not match as for a signature that does not.
      valid = false;
    }
    if (!certificate)
      return { found: true, valid: false, coversWholeFile, fingerprint: null, commonName: null };
    const der = Buffer.from(certificate.toSchema().toBER());
    const commonName = certificate.subject.typesAndValues.find((t) => t.type === COMMON_NAME);
    return {
      found: true,
      valid,
      coversWholeFile,
      fingerprint: sha256Hex(der),
      commonName: commonName ? String(commonName.value.valueBlock.value) : null,
    };
  } catch {
    return { found: true, valid: false, coversWholeFile, fingerprint: null, commonName: null };
  }
}
