import type * as Pkijs from 'pkijs';
import { sha256Hex } from '../../shared/sha256.js';
import { pdfSignatureParts } from './pdf-signature-parts.js';
import { pkijsWithEngine, toArrayBuffer } from './pkijs-engine.js';

/** What a PDF's (first) signature says, read and checked with pkijs; no trust in who made it yet. */
export type PdfSignature =
  | { found: false }
  | {
      found: true;
      /** The CMS signature matches the signed bytes under the signer's certificate. */
      valid: boolean;
      /**
       * Nothing unsigned follows: the signature's byte ranges reach the end of the file, or every update
       * after it (B-LT's validation data, B-LTA's archive) is covered by a valid document timestamp
       * whose range does.
       */
      coversWholeFile: boolean;
      /** SHA-256 of the signer's certificate (DER), hex, as `SealCertificate.fingerprint`. */
      fingerprint: string | null;
      commonName: string | null;
    };

const COMMON_NAME = '2.5.4.3';
const TST_INFO = '1.2.840.113549.1.9.16.1.4';

/**
 * Reads the first signature of a PDF and verifies its CMS SignedData over the signed bytes: the digest,
 * and the signature over the signed attributes with the key of the certificate it carries; then the
 * document timestamps after it, each over its own range. The certificate chain is not checked: the
 * caller compares the certificate with the seals it knows.
 */
export async function readPdfSignature(pdf: Buffer): Promise<PdfSignature> {
  const [first, ...later] = pdfSignatureParts(pdf);
  if (!first) return { found: false };
  const pkijs = await pkijsWithEngine();
  const last = later.at(-1) ?? first;
  const reachesEnd = last.byteRange[2] + last.byteRange[3] === pdf.length;
  const timestampsHold = (await Promise.all(later.map((part) => documentTimestampValid(pkijs, part)))).every(
    Boolean,
  );
  const coversWholeFile = reachesEnd && timestampsHold;
  try {
    const signedData = signedDataOf(pkijs, first.cms);
    const certificate = signedData.certificates?.find((c) => c instanceof pkijs.Certificate);
    const valid = await verified(signedData, first.signedBytes);
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

/** A /DocTimeStamp: an RFC 3161 token whose imprint is the hash of its range (pkijs compares both). */
async function documentTimestampValid(
  pkijs: typeof Pkijs,
  part: { cms: Buffer; signedBytes: Buffer },
): Promise<boolean> {
  try {
    const signedData = signedDataOf(pkijs, part.cms);
    if (signedData.encapContentInfo.eContentType !== TST_INFO) return false;
    return await verified(signedData, part.signedBytes);
  } catch {
    return false;
  }
}

function signedDataOf(pkijs: typeof Pkijs, cms: Buffer): Pkijs.SignedData {
  return new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(toArrayBuffer(cms)).content });
}

async function verified(signedData: Pkijs.SignedData, signedBytes: Buffer): Promise<boolean> {
  try {
    return await signedData.verify({ signer: 0, data: toArrayBuffer(signedBytes), checkChain: false });
  } catch {
    // pkijs throws for a digest that does not match as for a signature that does not.
    return false;
  }
}
