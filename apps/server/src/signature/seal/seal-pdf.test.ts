import { beforeAll, describe, expect, it } from 'vitest';
import { contractPdf, pdfsig } from '../../test/pdf-tools.js';
import {
  createSelfSignedSeal,
  readSealP12,
  type SealCertificate,
  SealCertificateError,
} from './seal-certificate.js';
import { sealPdf } from './seal-pdf.js';
import { readPdfSignature } from './seal-signature.js';

const REASON = 'Umschlag 42 abgeschlossen';

let seal: SealCertificate;
beforeAll(async () => {
  seal = await createSelfSignedSeal('Vertragsgenerator-Siegel vertrag.example.com');
});

describe('sealPdf', () => {
  const details = {
    reason: REASON,
    location: 'https://vertrag.example.com',
    contact: 'legal@demo.local',
    signingTime: new Date('2026-11-25T10:00:00Z'),
  };

  it('makes a PAdES signature over the whole file that pdfsig finds valid', async () => {
    const sealed = (await sealPdf(await contractPdf(), seal, details)).pdf;
    const report = await pdfsig(sealed);
    expect(report).toMatch(/Signature Type: ETSI\.CAdES\.detached/);
    expect(report).toMatch(/Signing Hash Algorithm: SHA-256/);
    expect(report).toMatch(/Signer Certificate Common Name: Vertragsgenerator-Siegel vertrag\.example\.com/);
    expect(report).toMatch(/Total document signed/);
    expect(report).toMatch(/Signature Validation: Signature is Valid\./);
  });

  it('is broken by one changed byte', async () => {
    const sealed = (await sealPdf(await contractPdf(), seal, details)).pdf;
    const at = sealed.indexOf(Buffer.from(REASON));
    expect(at).toBeGreaterThan(0);
    const tampered = Buffer.from(sealed);
    tampered[at + REASON.indexOf('42')] = '3'.charCodeAt(0);
    const report = await pdfsig(tampered);
    expect(report).not.toMatch(/Signature is Valid\./);
    expect(report).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
  });

  it('seals with a company certificate from a PKCS#12 file as well', async () => {
    const company = await createSelfSignedSeal('Muster AG');
    const fromFile = readSealP12(company.p12, company.passphrase);
    const report = await pdfsig((await sealPdf(await contractPdf(), fromFile, details)).pdf);
    expect(report).toMatch(/Signer Certificate Common Name: Muster AG/);
    expect(report).toMatch(/Signature is Valid\./);
  });
});

describe('readSealP12', () => {
  it('reads a certificate with its password', () => {
    const read = readSealP12(seal.p12, seal.passphrase);
    expect(read.fingerprint).toBe(seal.fingerprint);
    expect(read.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(read.notAfter.getTime()).toBeGreaterThan(Date.now() + 9 * 365 * 86_400_000);
  });

  it('refuses a wrong password, naming the variable', () => {
    expect(() => readSealP12(seal.p12, 'falsch')).toThrow(SealCertificateError);
    expect(() => readSealP12(seal.p12, 'falsch')).toThrow(/SEAL_P12_PASSWORD/);
  });

  it('refuses a file that is not PKCS#12', () => {
    expect(() => readSealP12(Buffer.from('%PDF-1.7 kein Zertifikat'), '')).toThrow(/not a PKCS#12 file/);
  });

  it('refuses an expired certificate, with its date', async () => {
    const old = await createSelfSignedSeal('Alt GmbH', new Date('2010-01-01T00:00:00Z'));
    expect(() => readSealP12(old.p12, old.passphrase)).toThrow(/expired on 2020-01-01/);
  });
});

describe('readPdfSignature', () => {
  const details = {
    reason: REASON,
    location: 'https://vertrag.example.com',
    contact: 'legal@demo.local',
    signingTime: new Date('2026-11-25T10:00:00Z'),
  };

  it('finds the seal valid over the whole file, and names its certificate', async () => {
    const sealed = Buffer.from((await sealPdf(await contractPdf(), seal, details)).pdf);
    expect(await readPdfSignature(sealed)).toEqual({
      found: true,
      valid: true,
      coversWholeFile: true,
      fingerprint: seal.fingerprint,
      commonName: 'Vertragsgenerator-Siegel vertrag.example.com',
    });
  });

  it('finds it invalid after one changed byte, and not covering what was appended', async () => {
    const sealed = Buffer.from((await sealPdf(await contractPdf(), seal, details)).pdf);
    const tampered = Buffer.from(sealed);
    const at = tampered.indexOf(Buffer.from(REASON)) + REASON.indexOf('42');
    tampered[at] = '3'.charCodeAt(0);
    expect(await readPdfSignature(tampered)).toMatchObject({
      found: true,
      valid: false,
      fingerprint: seal.fingerprint,
    });
    const appended = Buffer.concat([sealed, Buffer.from('\n% added later\n')]);
    expect(await readPdfSignature(appended)).toMatchObject({
      found: true,
      valid: true,
      coversWholeFile: false,
    });
  });

  it('reads a signature whose last byte is 0, which the padding of /Contents must not swallow', async () => {
    const sealed = Buffer.from((await sealPdf(await contractPdf(), seal, details)).pdf);
    const open = sealed.indexOf('/Contents <') + '/Contents <'.length;
    const hex = sealed.subarray(open, sealed.indexOf('>', open)).toString('latin1');
    // The DER ends with its last byte that is not 0; the zeros after it are padding.
    let end = hex.length;
    while (hex.slice(end - 2, end) === '00') end -= 2;
    const changed = Buffer.from(sealed);
    changed.write('00', open + end - 2, 'latin1');
    // The RSA signature's last byte changed, so it no longer verifies; but it is still read as ours.
    expect(await readPdfSignature(changed)).toMatchObject({
      found: true,
      valid: false,
      fingerprint: seal.fingerprint,
      commonName: 'Vertragsgenerator-Siegel vertrag.example.com',
    });
  });

  it('finds no signature in an unsigned PDF', async () => {
    expect(await readPdfSignature(Buffer.from(await contractPdf()))).toEqual({ found: false });
  });
});
