import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimestampAuthoritySettings } from '../../config/seal.js';
import {
  contractPdf,
  openssl,
  pdfsig,
  qpdfCheck,
  timestampCertificateNotAfter,
} from '../../test/pdf-tools.js';
import { startTestPki, type TestPki } from '../../test/test-pki.js';
import { archiveTimestamp, LongTermValidationError } from './document-timestamp.js';
import { pdfSignatureParts } from './pdf-signature-parts.js';
import { createSelfSignedSeal, readSealP12, type SealCertificate } from './seal-certificate.js';
import { sealPdf } from './seal-pdf.js';
import { TimestampAuthorities, TimestampError } from './timestamp-authority.js';

const DETAILS = {
  reason: 'Von allen unterschrieben: Rahmenvertrag PL-10001',
  location: 'https://vertraege.firma.example',
  contact: 'https://vertraege.firma.example',
  signingTime: new Date('2026-11-26T09:30:00Z'),
};

/**
 * The signed and the unsigned attributes of a CMS's signer, as `openssl cms -cmsout -print` names them
 * (the unsigned ones hold the TSA's token, whose own attributes are the TSA's business).
 */
async function cmsAttributes(cms: Buffer): Promise<{ signed: string; unsigned: string }> {
  const { ok, output } = await openssl(['cms', '-cmsout', '-print', '-inform', 'DER', '-in', 'sig.der'], {
    'sig.der': cms,
  });
  expect(ok).toBe(true);
  const signedAt = output.indexOf('signedAttrs:');
  const unsignedAt = output.indexOf('unsignedAttrs:');
  expect(signedAt).toBeGreaterThan(0);
  return {
    signed: output.slice(signedAt, output.indexOf('signatureAlgorithm:', signedAt)),
    unsigned: unsignedAt > 0 ? output.slice(unsignedAt) : '',
  };
}

/** `openssl cms -verify` of a CMS over the bytes its /ByteRange names (no trust in the certificate). */
async function cmsVerifies(cms: Buffer, content: Buffer): Promise<boolean> {
  const { output } = await openssl(
    [
      'cms',
      '-verify',
      '-binary',
      '-inform',
      'DER',
      '-in',
      'sig.der',
      '-content',
      'content.bin',
      '-noverify',
      '-out',
      'out',
    ],
    { 'sig.der': cms, 'content.bin': content },
  );
  return /Verification successful/.test(output);
}

/** `openssl ts -verify` of a document timestamp over its signed bytes, against the test CA. */
async function timestampVerifies(token: Buffer, content: Buffer, caPem: string): Promise<boolean> {
  const { output } = await openssl(
    ['ts', '-verify', '-data', 'content.bin', '-in', 'token.der', '-token_in', '-CAfile', 'ca.pem'],
    { 'token.der': token, 'content.bin': content, 'ca.pem': caPem },
  );
  return /Verification: OK/.test(output);
}

/** `qpdf --check` finds the PDF's structure sound: exit code 0, neither errors nor warnings. */
async function expectSoundStructure(pdf: Uint8Array): Promise<void> {
  const { exitCode, report } = await qpdfCheck(pdf);
  expect(exitCode, report).toBe(0);
  expect(report).toMatch(/No syntax or stream encoding errors found/);
  expect(report).not.toMatch(/WARNING|damaged|qpdf: /i);
}

let pki: TestPki;
let seal: SealCertificate;
beforeAll(async () => {
  [pki, seal] = await Promise.all([
    startTestPki(),
    createSelfSignedSeal('Vertragsgenerator-Siegel vertraege.firma.example'),
  ]);
});
afterAll(() => pki.close());

function authorities(settings: Partial<TimestampAuthoritySettings> = {}): TimestampAuthorities {
  return new TimestampAuthorities({
    urls: [pki.tsaUrl],
    username: undefined,
    password: undefined,
    clientCertificate: undefined,
    trustedCertificates: [],
    timeoutMs: 5_000,
    ...settings,
  });
}

describe('B-B: without a timestamp authority', () => {
  it('carries content-type, message-digest and signing-certificate-v2 of the seal, and no signing-time', async () => {
    const sealed = await sealPdf(await contractPdf(), seal, DETAILS);
    expect(sealed.level).toBe('B-B');
    expect(sealed.renewBy).toBeNull();
    const [signature] = pdfSignatureParts(sealed.pdf);
    if (!signature) throw new Error('no signature');
    const { signed, unsigned } = await cmsAttributes(signature.cms);
    expect(signed).toMatch(/object: contentType \(1\.2\.840\.113549\.1\.9\.3\)/);
    expect(signed).toMatch(/object: messageDigest \(1\.2\.840\.113549\.1\.9\.4\)/);
    expect(signed).toMatch(/object: id-smime-aa-signingCertificateV2 \(1\.2\.840\.113549\.1\.9\.16\.2\.47\)/);
    expect(signed).not.toMatch(/signingTime/);
    expect(unsigned).not.toMatch(/timeStampToken/);
    // The certificate hash in signing-certificate-v2 is the seal's own: openssl prints its octets.
    expect(signed).toContain(`[HEX DUMP]:${seal.fingerprint.toUpperCase()}`);
    expect(await cmsVerifies(signature.cms, signature.signedBytes)).toBe(true);
    // The time stands in the signature dictionary instead.
    expect(Buffer.from(sealed.pdf).toString('latin1')).toMatch(/\/M \(D:20261126/);
    expect(await pdfsig(sealed.pdf)).toMatch(/Signature Validation: Signature is Valid\./);
    await expectSoundStructure(sealed.pdf);
  });

  it('fails the structure check once its last cross-reference table is cut short', async () => {
    const sealed = Buffer.from((await sealPdf(await contractPdf(), seal, DETAILS)).pdf);
    const trailer = sealed.lastIndexOf('trailer');
    expect(sealed.lastIndexOf('xref', trailer)).toBeGreaterThan(0);
    // Two of the table's 20-byte entries and everything after them gone.
    const { exitCode, report } = await qpdfCheck(sealed.subarray(0, trailer - 40));
    expect(exitCode, report).not.toBe(0);
    expect(report).toMatch(/file is damaged/);
  });
});

describe('B-LTA: with a timestamp authority', () => {
  it('timestamps the signature, embeds the validation data and covers the whole file with a document timestamp', async () => {
    pki.tsa('ok');
    const sealed = await sealPdf(await contractPdf(), seal, DETAILS, {
      authorities: authorities(),
      renewDaysBefore: 90,
    });
    expect(sealed.level).toBe('B-LTA');

    const report = await pdfsig(sealed.pdf);
    expect(report).toMatch(
      /Signature #1:[\s\S]*Signature Type: ETSI\.CAdES\.detached[\s\S]*Signature is Valid\./,
    );
    expect(report).toMatch(
      /Signature #2:[\s\S]*Common Name: Test-TSA Vertragsgenerator[\s\S]*Total document signed/,
    );

    const [signature, documentTimestamp] = pdfSignatureParts(sealed.pdf);
    if (!signature || !documentTimestamp) throw new Error('expected a signature and a document timestamp');
    const { signed, unsigned } = await cmsAttributes(signature.cms);
    expect(unsigned).toMatch(/object: id-smime-aa-timeStampToken \(1\.2\.840\.113549\.1\.9\.16\.2\.14\)/);
    expect(signed).not.toMatch(/signingTime/);
    expect(await cmsVerifies(signature.cms, signature.signedBytes)).toBe(true);
    expect(await timestampVerifies(documentTimestamp.cms, documentTimestamp.signedBytes, pki.caPem)).toBe(
      true,
    );

    const text = Buffer.from(sealed.pdf).toString('latin1');
    expect(text).toMatch(/\/DSS/);
    expect(text).toMatch(/\/Type\s*\/DocTimeStamp/);
    expect(text).toMatch(/\/SubFilter\s*\/ETSI\.RFC3161/);
    await expectSoundStructure(sealed.pdf);
    // Renewal 90 days before the document timestamp's TSA certificate ends, as openssl reads it.
    const notAfter = await timestampCertificateNotAfter(documentTimestamp.cms);
    expect(sealed.renewBy).toEqual(new Date(notAfter.getTime() - 90 * 24 * 3600_000));
  });

  it('is broken by one changed byte', async () => {
    pki.tsa('ok');
    const sealed = await sealPdf(await contractPdf(), seal, DETAILS, {
      authorities: authorities(),
      renewDaysBefore: 90,
    });
    const tampered = Buffer.from(sealed.pdf);
    const at = tampered.indexOf('Rahmenvertrag PL-10001');
    expect(at).toBeGreaterThan(0);
    tampered[at] = 'X'.charCodeAt(0);
    const [signature, documentTimestamp] = pdfSignatureParts(tampered);
    if (!signature || !documentTimestamp) throw new Error('expected a signature and a document timestamp');
    expect(await cmsVerifies(signature.cms, signature.signedBytes)).toBe(false);
    expect(await timestampVerifies(documentTimestamp.cms, documentTimestamp.signedBytes, pki.caPem)).toBe(
      false,
    );
    expect(await pdfsig(tampered)).not.toMatch(/Signature #1:[\s\S]*Signature is Valid\.[\s\S]*Signature #2/);
  });

  it('fetches OCSP answers for a company certificate that names a responder', async () => {
    pki.tsa('ok');
    const company = readSealP12(pki.companySeal('Muster Personal GmbH', 'geheim'), 'geheim');
    const before = pki.ocspRequests;
    const sealed = await sealPdf(await contractPdf(), company, DETAILS, {
      authorities: authorities(),
      renewDaysBefore: 90,
    });
    expect(sealed.level).toBe('B-LTA');
    // The seal's certificate and the TSA's, each asked once.
    expect(pki.ocspRequests - before).toBeGreaterThanOrEqual(2);
    expect(Buffer.from(sealed.pdf).toString('latin1')).toMatch(/\/OCSPs/);
    expect(await pdfsig(sealed.pdf)).toMatch(/Common Name: Muster Personal GmbH[\s\S]*Signature is Valid\./);
  });

  it('renews the archive timestamp over everything, earlier signatures intact', async () => {
    pki.tsa('ok');
    const timestamping = { authorities: authorities(), renewDaysBefore: 90 };
    const sealed = await sealPdf(await contractPdf(), seal, DETAILS, timestamping);
    const renewed = await archiveTimestamp(sealed.pdf, timestamping);
    expect(renewed.level).toBe('B-LTA');
    expect(renewed.pdf.subarray(0, sealed.pdf.length).equals(sealed.pdf)).toBe(true);
    const parts = pdfSignatureParts(renewed.pdf);
    expect(parts).toHaveLength(3);
    const last = parts[2];
    if (!last) throw new Error('no renewed timestamp');
    expect(last.byteRange[2] + last.byteRange[3]).toBe(renewed.pdf.length);
    expect(await timestampVerifies(last.cms, last.signedBytes, pki.caPem)).toBe(true);
    const report = await pdfsig(renewed.pdf);
    expect(report).toMatch(/Signature #1:[\s\S]*Signature is Valid\./);
    expect(report).toMatch(/Signature #3:[\s\S]*Total document signed/);
    await expectSoundStructure(renewed.pdf);
  });
});

describe('a timestamp authority that fails', () => {
  const cases = [
    ['down', /Kein gültiger Zeitstempel/],
    ['slow', /keine Antwort nach 1 s/],
    ['garbage', /keine RFC-3161-Antwort/],
    ['other-imprint', /einem anderen Dokument/],
    ['no-nonce', /nicht die Nonce/],
    ['rejected', /abgelehnt \(Status 2/],
    ['no-eku', /nicht für Zeitstempel ausgestellt/],
    ['expired-certificate', /zur angegebenen Zeit nicht gültig/],
    ['no-certificate', /enthält das Zertifikat der TSA nicht/],
    ['bad-signature', /Signatur des Zeitstempels ist ungültig/],
  ] as const;

  it.each(cases)('%s: no seal, never a weaker one', async (behaviour, message) => {
    pki.tsa(behaviour);
    // Only the hanging authority needs the short deadline; the others answer, but under a loaded
    // test run signing that answer can take longer than 1 s, which would fail them as "slow".
    const failing = sealPdf(await contractPdf(), seal, DETAILS, {
      authorities: authorities({ timeoutMs: behaviour === 'slow' ? 1_000 : 30_000 }),
      renewDaysBefore: 90,
    });
    await expect(failing).rejects.toThrow(TimestampError);
    await expect(failing).rejects.toThrow(message);
  });

  it('asks the next authority in order when the first fails', async () => {
    pki.tsa('ok');
    const sealed = await sealPdf(await contractPdf(), seal, DETAILS, {
      authorities: authorities({ urls: ['http://127.0.0.1:9/tsa', pki.tsaUrl] }),
      renewDaysBefore: 90,
    });
    expect(sealed.level).toBe('B-LTA');
  });

  it('sends basic auth from the settings or the address', async () => {
    pki.tsa('ok');
    pki.requireBasicAuth('siegel:geheim');
    try {
      const withSettings = authorities({ username: 'siegel', password: 'geheim' });
      const digest = createHash('sha256').update('x').digest();
      await expect(withSettings.timestamp(digest)).resolves.toMatchObject({ genTime: expect.any(Date) });
      const inAddress = authorities({ urls: [pki.tsaUrl.replace('http://', 'http://siegel:geheim@')] });
      await expect(inAddress.timestamp(digest)).resolves.toMatchObject({ genTime: expect.any(Date) });
      const wrong = authorities({ username: 'siegel', password: 'falsch' });
      await expect(wrong.timestamp(digest)).rejects.toThrow(/HTTP 401/);
    } finally {
      pki.requireBasicAuth(undefined);
    }
  });

  it('refuses a TSA whose certificate does not chain to TSA_CA_FILE', async () => {
    pki.tsa('ok');
    const other = await createSelfSignedSeal('Fremde CA');
    const digest = createHash('sha256').update('x').digest();
    await expect(authorities({ trustedCertificates: [other.certificate] }).timestamp(digest)).rejects.toThrow(
      /nicht vertrauenswürdig/,
    );
    const caDer = Buffer.from(pki.caPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    await expect(authorities({ trustedCertificates: [caDer] }).timestamp(digest)).resolves.toBeTruthy();
  });

  it('refuses B-LTA when a named OCSP responder gives nothing', async () => {
    pki.tsa('ok');
    const company = readSealP12(pki.companySeal('Muster Ausfall GmbH', 'geheim'), 'geheim');
    pki.ocsp('down');
    try {
      await expect(
        sealPdf(await contractPdf(), company, DETAILS, {
          authorities: authorities({ timeoutMs: 1_000 }),
          renewDaysBefore: 90,
        }),
      ).rejects.toThrow(LongTermValidationError);
    } finally {
      pki.ocsp('ok');
    }
  });
});
