import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import * as asn1js from 'asn1js';
import type * as Pkijs from 'pkijs';
import type { TimestampAuthoritySettings } from '../../config/seal.js';
import { pkijsWithEngine, toArrayBuffer } from './pkijs-engine.js';
import { randomPositiveInteger } from './random-integer.js';

const SHA256 = '2.16.840.1.101.3.4.2.1';
const ID_DATA = '1.2.840.113549.1.7.1';
const ID_KP_TIME_STAMPING = '1.3.6.1.5.5.7.3.8';
const EXTENDED_KEY_USAGE = '2.5.29.37';
/** An answer bigger than this is no timestamp: a token with a chain of certificates is a few kB. */
const MAX_ANSWER_BYTES = 256 * 1024;

/** Why no timestamp was embedded, per address tried; the seal is retried, never made without it. */
export class TimestampError extends Error {
  override name = 'TimestampError';
}

/** A checked RFC 3161 token: its DER, the time it states and the TSA certificate that signed it. */
export interface Timestamp {
  token: Uint8Array;
  genTime: Date;
  /** Until when the TSA's certificate is valid: the token must be renewed before (archive run). */
  tsaCertificateNotAfter: Date;
}

/**
 * The timestamp authorities of `TSA_URL`, asked in order until one answers with a token that holds up:
 * granted, for exactly the hash and nonce asked, signed by a certificate for time-stamping that is valid
 * at the stated time (and issued by `TSA_CA_FILE`'s CAs where configured). An answer that fails any of
 * these is not embedded; the next address is tried.
 */
export class TimestampAuthorities {
  constructor(private readonly settings: TimestampAuthoritySettings) {}

  /** The wait for one authority, also the bound for fetching revocation data at sealing time. */
  get timeoutMs(): number {
    return this.settings.timeoutMs;
  }

  /** A token over `digest` (SHA-256) from the first authority that gives a valid one. */
  async timestamp(digest: Uint8Array): Promise<Timestamp> {
    const failures: string[] = [];
    for (const url of this.settings.urls) {
      try {
        return await this.ask(url, digest);
      } catch (error) {
        failures.push(`${redacted(url)}: ${(error as Error).message}`);
      }
    }
    throw new TimestampError(`Kein gültiger Zeitstempel: ${failures.join('; ')}`);
  }

  private async ask(url: string, digest: Uint8Array): Promise<Timestamp> {
    const pkijs = await pkijsWithEngine();
    const nonce = randomPositiveInteger(8);
    const query = new pkijs.TimeStampReq({
      version: 1,
      messageImprint: new pkijs.MessageImprint({
        hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256 }),
        hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(digest) }),
      }),
      nonce: new asn1js.Integer({ valueHex: toArrayBuffer(nonce) }),
      certReq: true,
    });
    const answer = await this.post(url, Buffer.from(query.toSchema().toBER()));
    return checkedToken(pkijs, answer, { digest, nonce, trusted: this.settings.trustedCertificates });
  }

  private post(address: string, body: Buffer): Promise<Buffer> {
    const url = new URL(address);
    const { username, password, clientCertificate, tlsCertificates = [], timeoutMs } = this.settings;
    const user = url.username ? decodeURIComponent(url.username) : username;
    const secret = url.password ? decodeURIComponent(url.password) : password;
    url.username = '';
    url.password = '';
    const headers: Record<string, string> = {
      'content-type': 'application/timestamp-query',
      'content-length': String(body.length),
    };
    if (user !== undefined)
      headers.authorization = `Basic ${Buffer.from(`${user}:${secret ?? ''}`).toString('base64')}`;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(
        url,
        {
          method: 'POST',
          headers,
          ...(url.protocol === 'https:' && clientCertificate
            ? { pfx: clientCertificate.p12, passphrase: clientCertificate.passphrase }
            : {}),
          // `ca` replaces the system's roots, so a TSA of the company's own PKI is trusted beside them.
          ...(url.protocol === 'https:' && tlsCertificates.length > 0
            ? { ca: [...rootCertificates, ...tlsCertificates] }
            : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) request.destroy(new Error('die Antwort ist zu groß'));
            else chunks.push(chunk);
          });
          response.on('end', () => {
            if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}`));
            else resolve(Buffer.concat(chunks));
          });
          response.on('error', reject);
        },
      );
      // One deadline for the whole exchange: a TSA that accepts and never answers is as down as one that refuses.
      const deadline = setTimeout(
        () => request.destroy(new Error(`keine Antwort nach ${timeoutMs / 1000} s`)),
        timeoutMs,
      );
      request.on('close', () => clearTimeout(deadline));
      request.on('error', reject);
      request.end(body);
    });
  }
}

/** The checks an answer must pass before its token is embedded. */
async function checkedToken(
  pkijs: typeof Pkijs,
  answer: Buffer,
  asked: { digest: Uint8Array; nonce: Buffer; trusted: Uint8Array[] },
): Promise<Timestamp> {
  let response: Pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(toArrayBuffer(answer));
  } catch {
    throw new Error('die Antwort ist keine RFC-3161-Antwort');
  }
  const { status } = response.status;
  if (status !== 0 && status !== 1) {
    const text = response.status.statusStrings?.map((s) => s.valueBlock.value).join(' ') ?? '';
    throw new Error(`abgelehnt (Status ${status}${text ? `: ${text}` : ''})`);
  }
  if (!response.timeStampToken) throw new Error('die Antwort enthält keinen Zeitstempel');
  const signedData = new pkijs.SignedData({ schema: response.timeStampToken.content });
  const content = signedData.encapContentInfo.eContent;
  if (!content) throw new Error('der Zeitstempel enthält keine Zeitangabe');
  const info = new pkijs.TSTInfo({ schema: asn1js.fromBER(content.getValue()).result });

  const imprint = info.messageImprint;
  if (
    imprint.hashAlgorithm.algorithmId !== SHA256 ||
    !Buffer.from(imprint.hashedMessage.valueBlock.valueHexView).equals(Buffer.from(asked.digest))
  ) {
    throw new Error('der Zeitstempel gilt einem anderen Dokument');
  }
  if (!info.nonce || !Buffer.from(info.nonce.valueBlock.valueHexView).equals(asked.nonce)) {
    throw new Error('der Zeitstempel trägt nicht die Nonce der Anfrage');
  }
  const signer = signerCertificate(pkijs, signedData);
  if (!signer) throw new Error('der Zeitstempel enthält das Zertifikat der TSA nicht');
  if (!forTimeStamping(signer))
    throw new Error('das Zertifikat der TSA ist nicht für Zeitstempel ausgestellt');
  if (info.genTime < signer.notBefore.value || info.genTime > signer.notAfter.value) {
    throw new Error('das Zertifikat der TSA war zur angegebenen Zeit nicht gültig');
  }
  const trustedCerts = asked.trusted.map((der) => pkijs.Certificate.fromBER(toArrayBuffer(der)));
  // pkijs checks a TSTInfo's imprint against the stamped data itself, which a TSA client has only as its
  // hash; the imprint was compared above, so the signature is verified as over plain signed content.
  signedData.encapContentInfo.eContentType = ID_DATA;
  let verified = false;
  try {
    verified = await signedData.verify({
      signer: 0,
      checkChain: trustedCerts.length > 0,
      trustedCerts,
      checkDate: info.genTime,
    });
  } catch {
    verified = false;
  }
  if (!verified) throw new Error('die Signatur des Zeitstempels ist ungültig oder nicht vertrauenswürdig');
  return {
    token: new Uint8Array(response.timeStampToken.toSchema().toBER()),
    genTime: info.genTime,
    tsaCertificateNotAfter: signer.notAfter.value,
  };
}

/** The certificate the token's signer info names (issuer and serial number). */
function signerCertificate(pkijs: typeof Pkijs, signedData: Pkijs.SignedData): Pkijs.Certificate | undefined {
  const sid = signedData.signerInfos[0]?.sid;
  const certificates = (signedData.certificates ?? []).filter(
    (c): c is Pkijs.Certificate => c instanceof pkijs.Certificate,
  );
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certificates.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber));
  }
  return certificates[0];
}

/** RFC 3161 §2.3: a TSA's certificate has exactly the extended key usage id-kp-timeStamping. */
function forTimeStamping(certificate: Pkijs.Certificate): boolean {
  const extension = certificate.extensions?.find((e) => e.extnID === EXTENDED_KEY_USAGE);
  const usage = extension?.parsedValue as Pkijs.ExtKeyUsage | undefined;
  return usage?.keyPurposes.includes(ID_KP_TIME_STAMPING) ?? false;
}

/** An address as it may appear in a log or an error: without its password. */
function redacted(address: string): string {
  try {
    const url = new URL(address);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return address;
  }
}
