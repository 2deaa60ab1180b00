import type { RevocationProvider } from '@libpdf/core';
import type * as Pkijs from 'pkijs';
import { pkijsWithEngine, toArrayBuffer } from './pkijs-engine.js';

const AUTHORITY_INFO_ACCESS = '1.3.6.1.5.5.7.1.1';
const OCSP_METHOD = '1.3.6.1.5.5.7.48.1';
const CRL_DISTRIBUTION_POINTS = '2.5.29.31';
/** GeneralName's uniformResourceIdentifier. */
const URI = 6;
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * Revocation data for the DSS (B-LT), fetched at sealing time: an OCSP answer from the responder a
 * certificate names, else its CRL. It remembers which certificates named a source that gave nothing, so
 * that the seal is not called B-LT while evidence is missing; a certificate that names none (a root,
 * the self-signed seal) has nothing to fetch.
 */
export class RevocationData implements RevocationProvider {
  /** Subjects of certificates whose named OCSP responder and CRL gave no answer. */
  readonly missing: string[] = [];
  private readonly answered = new Set<string>();

  constructor(private readonly timeoutMs: number) {}

  async getOCSP(certificateDer: Uint8Array, issuerDer: Uint8Array): Promise<Uint8Array | null> {
    const pkijs = await pkijsWithEngine();
    const certificate = pkijs.Certificate.fromBER(toArrayBuffer(certificateDer));
    const responder = sources(certificate).ocsp[0];
    if (!responder) return null;
    try {
      const request = new pkijs.OCSPRequest();
      await request.createForCertificate(certificate, {
        hashAlgorithm: 'SHA-1',
        issuerCertificate: pkijs.Certificate.fromBER(toArrayBuffer(issuerDer)),
      });
      const answer = await this.fetch(responder, {
        method: 'POST',
        headers: { 'content-type': 'application/ocsp-request' },
        body: Buffer.from(request.toSchema(true).toBER()),
      });
      const response = pkijs.OCSPResponse.fromBER(toArrayBuffer(answer));
      // 0: successful; anything else (malformed, try later, unauthorised) is no evidence.
      if (response.responseStatus.valueBlock.valueDec !== 0) return null;
      this.answered.add(key(certificateDer));
      return new Uint8Array(answer);
    } catch {
      return null;
    }
  }

  async getCRL(certificateDer: Uint8Array): Promise<Uint8Array | null> {
    // The gatherer asks for a CRL only where OCSP gave nothing.
    const pkijs = await pkijsWithEngine();
    const certificate = pkijs.Certificate.fromBER(toArrayBuffer(certificateDer));
    const { ocsp, crl } = sources(certificate);
    for (const url of crl) {
      try {
        const answer = await this.fetch(url, { method: 'GET' });
        pkijs.CertificateRevocationList.fromBER(toArrayBuffer(answer));
        this.answered.add(key(certificateDer));
        return new Uint8Array(answer);
      } catch {
        // The next distribution point.
      }
    }
    if ((ocsp.length > 0 || crl.length > 0) && !this.answered.has(key(certificateDer))) {
      this.missing.push(subjectOf(certificate));
    }
    return null;
  }

  private async fetch(url: string, init: RequestInit): Promise<Buffer> {
    const response = await fetch(url, {
      ...init,
      redirect: 'error',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const answer = Buffer.from(await response.arrayBuffer());
    if (answer.length > MAX_ANSWER_BYTES) throw new Error('answer too large');
    return answer;
  }
}

/** The OCSP responders and CRL addresses a certificate names (http only: the fetch is unauthenticated). */
function sources(certificate: Pkijs.Certificate): { ocsp: string[]; crl: string[] } {
  const ocsp: string[] = [];
  const crl: string[] = [];
  for (const extension of certificate.extensions ?? []) {
    if (extension.extnID === AUTHORITY_INFO_ACCESS) {
      const access = extension.parsedValue as Pkijs.InfoAccess | undefined;
      for (const description of access?.accessDescriptions ?? []) {
        if (description.accessMethod === OCSP_METHOD && description.accessLocation.type === URI) {
          ocsp.push(String(description.accessLocation.value));
        }
      }
    }
    if (extension.extnID === CRL_DISTRIBUTION_POINTS) {
      const points = extension.parsedValue as Pkijs.CRLDistributionPoints | undefined;
      for (const point of points?.distributionPoints ?? []) {
        const names = Array.isArray(point.distributionPoint) ? point.distributionPoint : [];
        for (const name of names) if (name.type === URI) crl.push(String(name.value));
      }
    }
  }
  return { ocsp: ocsp.filter(isHttp), crl: crl.filter(isHttp) };
}

function isHttp(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

function subjectOf(certificate: Pkijs.Certificate): string {
  return certificate.subject.typesAndValues.map((t) => String(t.value.valueBlock.value)).join(', ');
}

function key(der: Uint8Array): string {
  return Buffer.from(der).toString('base64');
}
