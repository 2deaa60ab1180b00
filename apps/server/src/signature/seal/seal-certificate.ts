import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import forge from 'node-forge';
import { sha256Hex } from '../../shared/sha256.js';
import { randomPositiveInteger } from './random-integer.js';
import { SealCertificateError } from './seal-certificate-error.js';

export { SealCertificateError };

/**
 * The server's seal: the certificate and key with which it signs every completed envelope's PDF
 * (docs/architecture.md#signing). A company certificate from a PKCS#12 file, or a self-signed one the
 * server makes once and keeps in the database. Kept as read from the PKCS#12 file, and as key and certificates for the CMS.
 */
export interface SealCertificate {
  p12: Buffer;
  passphrase: string;
  /** The certificate's subject common name, shown in PDF readers as the signer. */
  commonName: string;
  notBefore: Date;
  notAfter: Date;
  /** SHA-256 of the certificate (DER), hex: which seal signed a document. */
  fingerprint: string;
  /** The certificate, DER. */
  certificate: Uint8Array;
  /** The other certificates of the file (its CAs), DER: embedded so the chain can be built. */
  chain: Uint8Array[];
  /** The private key, PKCS#8 DER. */
  privateKey: Uint8Array;
}

const generateRsaKeyPair = promisify(generateKeyPair);

/**
 * Reads and checks a PKCS#12 file's bytes: the password opens it, it holds a private key and the
 * certificate of that key, and the certificate is valid `now`.
 */
export function readSealP12(p12: Buffer, passphrase: string, now = new Date()): SealCertificate {
  let bags: forge.pkcs12.Pkcs12Pfx;
  try {
    bags = forge.pkcs12.pkcs12FromAsn1(
      forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary'))),
      false,
      passphrase,
    );
  } catch (error) {
    const reason = /MAC could not be verified|password/i.test((error as Error).message)
      ? 'the password (SEAL_P12_PASSWORD) does not open it'
      : `it is not a PKCS#12 file (${(error as Error).message})`;
    throw new SealCertificateError(`The seal certificate cannot be read: ${reason}.`);
  }
  const { oids } = forge.pki;
  const keys = [...bagsOf(bags, oids.pkcs8ShroudedKeyBag), ...bagsOf(bags, oids.keyBag)];
  const key = keys.find((bag) => bag.key)?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key) throw new SealCertificateError('The seal certificate file holds no private key.');
  const certificate = bagsOf(bags, oids.certBag)
    .map((bag) => bag.cert)
    .find((cert) => {
      const publicKey = cert?.publicKey as forge.pki.rsa.PublicKey | undefined;
      return publicKey?.n?.compareTo(key.n) === 0 && publicKey.e?.compareTo(key.e) === 0;
    });
  if (!certificate) {
    throw new SealCertificateError(
      'The seal certificate file holds no certificate of its private key (an RSA key).',
    );
  }
  const { notBefore, notAfter } = certificate.validity;
  if (now > notAfter) {
    throw new SealCertificateError(
      `The seal certificate expired on ${notAfter.toISOString()}: a new one is needed.`,
    );
  }
  if (now < notBefore) {
    throw new SealCertificateError(`The seal certificate is valid only from ${notBefore.toISOString()}.`);
  }
  const derOf = (cert: forge.pki.Certificate) =>
    Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
  const der = derOf(certificate);
  const chain = bagsOf(bags, oids.certBag).flatMap((bag) =>
    bag.cert && bag.cert !== certificate ? [derOf(bag.cert)] : [],
  );
  return {
    p12,
    passphrase,
    commonName: String(certificate.subject.getField('CN')?.value ?? ''),
    notBefore,
    notAfter,
    fingerprint: sha256Hex(der),
    certificate: der,
    chain,
    privateKey: Buffer.from(
      forge.asn1.toDer(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(key))).getBytes(),
      'binary',
    ),
  };
}

function bagsOf(p12: forge.pkcs12.Pkcs12Pfx, type: string | undefined): forge.pkcs12.Bag[] {
  return type ? (p12.getBags({ bagType: type })[type] ?? []) : [];
}

/** Ten years: a self-signed seal is replaced by deleting it, not by expiry. */
const SELF_SIGNED_YEARS = 10;

/**
 * A self-signed seal named `commonName`, for a server without a company certificate. The key comes from
 * node:crypto in libuv's threads (forge's own RSA key generation is pure JavaScript and takes seconds on
 * the event loop); forge builds the certificate and the PKCS#12 around it.
 */
export async function createSelfSignedSeal(commonName: string, now = new Date()): Promise<SealCertificate> {
  const { privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // Positive, DER-minimal and unique enough: 16 random bytes.
  certificate.serialNumber = randomPositiveInteger(16).toString('hex');
  certificate.validity.notBefore = new Date(now.getTime() - 60_000);
  certificate.validity.notAfter = new Date(now);
  certificate.validity.notAfter.setFullYear(now.getFullYear() + SELF_SIGNED_YEARS);
  const subject = [{ name: 'commonName', value: commonName }];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  certificate.sign(key, forge.md.sha256.create());
  const passphrase = randomBytes(24).toString('base64url');
  const p12 = forge.asn1
    .toDer(forge.pkcs12.toPkcs12Asn1(key, [certificate], passphrase, { algorithm: 'aes256' }))
    .getBytes();
  return readSealP12(Buffer.from(p12, 'binary'), passphrase, now);
}
