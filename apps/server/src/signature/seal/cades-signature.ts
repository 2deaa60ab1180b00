import { createHash, webcrypto } from 'node:crypto';
import { Signer } from '@signpdf/utils';
import * as asn1js from 'asn1js';
import type * as Pkijs from 'pkijs';
import { pkijsWithEngine, toArrayBuffer } from './pkijs-engine.js';
import type { SealCertificate } from './seal-certificate.js';
import type { Timestamp } from './timestamp-authority.js';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  /** ESS signing-certificate-v2 (RFC 5035): binds the certificate to the signature. */
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  /** id-aa-signatureTimeStampToken (RFC 3161 appendix A): the trusted time of a B-T signature. */
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
} as const;

/**
 * The CMS of a PAdES baseline signature (ETSI.CAdES.detached) over the bytes @signpdf hands over: signed
 * attributes content-type, message-digest and ESS signing-certificate-v2 — and no signing-time, which the
 * baseline forbids; the time stands in the signature dictionary's /M. With a timestamp authority the
 * signature value is timestamped (B-T) before the CMS is returned.
 */
export class CadesSigner extends Signer {
  /** The token embedded by the last `sign`: its time and TSA certificate decide the archive renewal. */
  timestamp: Timestamp | undefined;

  constructor(
    private readonly seal: SealCertificate,
    private readonly timestampOf?: (digest: Uint8Array) => Promise<Timestamp>,
  ) {
    super();
  }

  override async sign(signedBytes: Buffer): Promise<Buffer> {
    const pkijs = await pkijsWithEngine();
    const certificates = [this.seal.certificate, ...this.seal.chain].map((der) =>
      pkijs.Certificate.fromBER(toArrayBuffer(der)),
    );
    const [certificate] = certificates;
    if (!certificate) throw new Error('the seal holds no certificate');
    const signerInfo = new pkijs.SignerInfo({
      version: 1,
      sid: new pkijs.IssuerAndSerialNumber({
        issuer: certificate.issuer,
        serialNumber: certificate.serialNumber,
      }),
      signedAttrs: new pkijs.SignedAndUnsignedAttributes({
        type: 0,
        attributes: [
          attribute(pkijs, OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
          attribute(
            pkijs,
            OID.messageDigest,
            new asn1js.OctetString({ valueHex: toArrayBuffer(sha256(signedBytes)) }),
          ),
          attribute(
            pkijs,
            OID.signingCertificateV2,
            signingCertificateV2(pkijs, certificate, this.seal.certificate),
          ),
        ],
      }),
    });
    const signedData = new pkijs.SignedData({
      version: 1,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
      signerInfos: [signerInfo],
      certificates,
    });
    const key = await webcrypto.subtle.importKey(
      'pkcs8',
      toArrayBuffer(this.seal.privateKey),
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    await signedData.sign(key as Parameters<Pkijs.SignedData['sign']>[0], 0, 'SHA-256');

    this.timestamp = undefined;
    if (this.timestampOf) {
      // B-T: the TSA stamps the hash of the signature value, so the time covers this very signature.
      this.timestamp = await this.timestampOf(
        sha256(Buffer.from(signerInfo.signature.valueBlock.valueHexView)),
      );
      signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
        type: 1,
        attributes: [
          attribute(
            pkijs,
            OID.signatureTimeStampToken,
            asn1js.fromBER(toArrayBuffer(this.timestamp.token)).result,
          ),
        ],
      });
    }
    const contentInfo = new pkijs.ContentInfo({
      contentType: OID.signedData,
      content: signedData.toSchema(true),
    });
    return Buffer.from(contentInfo.toSchema().toBER());
  }
}

function attribute(pkijs: typeof Pkijs, type: string, value: asn1js.AsnType): Pkijs.Attribute {
  return new pkijs.Attribute({ type, values: [value] });
}

/**
 * SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }, one ESSCertIDv2 for the seal:
 * the certificate's SHA-256 (the default algorithm, so not named) and its issuer and serial number.
 */
function signingCertificateV2(
  pkijs: typeof Pkijs,
  certificate: Pkijs.Certificate,
  der: Uint8Array,
): asn1js.Sequence {
  const issuerSerial = new pkijs.IssuerSerial({
    issuer: new pkijs.GeneralNames({
      names: [new pkijs.GeneralName({ type: 4, value: certificate.issuer })],
    }),
    serialNumber: certificate.serialNumber,
  });
  const essCertIdV2 = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: toArrayBuffer(sha256(der)) }), issuerSerial.toSchema()],
  });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

function sha256(bytes: Uint8Array): Uint8Array {
  return createHash('sha256').update(bytes).digest();
}
