import { join } from 'node:path';
import type { ResolvedMatch, SealCheck } from '@vertragsgenerator/domain';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { createSelfSignedSeal } from '../signature/seal/seal-certificate.js';
import { sealPdf } from '../signature/seal/seal-pdf.js';
import { loadSeal } from '../signature/seal/seal-store.js';
import { richestDemoMatch } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import { eventually } from '../test/eventually.js';
import { sentPartnerEnvelope, signWithLink } from '../test/partner-envelope.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const partner = { name: 'Pia Prüfer', email: 'pia@partner.example' };
const SEAL_DETAILS = {
  reason: 'Test',
  location: 'https://vertraege.example',
  contact: 'legal@demo.local',
  signingTime: new Date('2026-11-25T10:00:00Z'),
};

async function unsignedPdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.addPage();
  return document.save();
}

describe.each(testDatabases())('Prüfen (POST /backend/signature/check) on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let berater: string;
  let sealed: Buffer;
  let envelopeId: string;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, { demoStaff: true });
    berater = await t.signIn('berater@demo.local');
    const { id, link } = await sentPartnerEnvelope(t, { token: berater, matchId: match.matchId, partner });
    envelopeId = id;
    await signWithLink(t, link, partner.name);
    const pdf = await eventually(
      'the sealed PDF',
      async () => (await new EnvelopesRepository(db).sealedPdf(id)) ?? undefined,
    );
    sealed = Buffer.from(pdf);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const check = (pdf: Uint8Array | string, token = berater) =>
    t.app.inject({
      method: 'POST',
      url: '/backend/signature/check',
      headers: { ...bearer(token), 'content-type': 'application/pdf' },
      payload: Buffer.from(pdf),
    });
  async function verdictOf(pdf: Uint8Array): Promise<SealCheck> {
    const response = await check(pdf);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  it('knows its sealed PDF: which envelope and match, who signed when', async () => {
    const result = await verdictOf(sealed);
    expect(result).toMatchObject({
      verdict: 'sealed',
      signature: {
        valid: true,
        coversWholeFile: true,
        commonName: expect.stringMatching(/^Vertragsgenerator-Siegel /),
      },
      envelope: {
        id: envelopeId,
        matchId: match.matchId,
        signers: [
          { role: 'Projektpartner', name: partner.name, email: partner.email, signedAt: expect.any(String) },
        ],
      },
    });
    expect(result.envelope?.completedAt).toEqual(expect.any(String));
  });

  it('tells a changed copy apart: one byte changed, or something added after sealing', async () => {
    const changed = Buffer.from(sealed);
    const at = changed.indexOf('\n%') + 2;
    changed[at] = (changed[at] as number) ^ 1;
    expect(await verdictOf(changed)).toMatchObject({
      verdict: 'changed',
      envelope: null,
      signature: { valid: false },
    });
    const appended = Buffer.concat([sealed, Buffer.from('\n% später ergänzt\n')]);
    expect(await verdictOf(appended)).toMatchObject({
      verdict: 'changed',
      signature: { valid: true, coversWholeFile: false },
    });
  });

  it('says when our seal is genuine but no envelope here has the PDF', async () => {
    const seal = await loadSeal(db, { commonName: 'nicht benutzt' });
    const result = await verdictOf((await sealPdf(await unsignedPdf(), seal, SEAL_DETAILS)).pdf);
    expect(result).toMatchObject({ verdict: 'unknown_envelope', envelope: null, signature: { valid: true } });
  });

  it('tells a PDF signed by someone else and one without a signature', async () => {
    const other = await createSelfSignedSeal('Fremde Signatur AG');
    expect(await verdictOf((await sealPdf(await unsignedPdf(), other, SEAL_DETAILS)).pdf)).toMatchObject({
      verdict: 'other_signature',
      signature: { commonName: 'Fremde Signatur AG', valid: true },
    });
    expect(await verdictOf(await unsignedPdf())).toMatchObject({ verdict: 'unsealed', signature: null });
  });

  it('refuses what is not a PDF, an empty file and a huge one, in German', async () => {
    const notPdf = await check('PK\u0003\u0004 ein Word-Dokument');
    expect(notPdf.statusCode).toBe(422);
    expect(notPdf.json()).toMatchObject({
      error: 'not_pdf',
      message: expect.stringMatching(/^Diese Datei ist kein PDF/),
    });
    const empty = await check('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Die Datei ist leer.');
    const huge = await check(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 1024 * 1024)]));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('Die Anfrage ist zu groß (höchstens 20 MB).');
  });

  it('refuses a body that is not sent as a PDF with 415, and no body at all as an empty file', async () => {
    const send = (headers: Record<string, string>, payload?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/backend/signature/check',
        headers: { ...bearer(berater), ...headers },
        ...(payload === undefined ? {} : { payload }),
      });
    const notPdf = [
      [{ 'content-type': 'application/json' }, '{}'],
      [{ 'content-type': 'application/json' }, '{"pdf":"JVBERi0xLjcK"}'],
      [{ 'content-type': 'application/json' }, ''],
      [{ 'content-type': 'application/json' }, '{"kaputt":'],
      [{ 'content-type': 'text/plain' }, '%PDF-1.7'],
      [{ 'content-type': 'application/x-www-form-urlencoded' }, 'pdf=%25PDF-1.7'],
      [{ 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
      [{ 'content-type': 'application/octet-stream' }, '%PDF-1.7'],
      [{}, '%PDF-1.7'],
    ] as const;
    for (const [headers, payload] of notPdf) {
      const response = await send(headers, payload);
      expect(response.statusCode, `${JSON.stringify(headers)} ${payload}`).toBe(415);
      expect(response.json()).toEqual({
        error: 'unsupported_media_type',
        message: expect.stringMatching(/^Sende die Datei als PDF/),
      });
    }
    const nothing = await send({});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json()).toEqual({ error: 'empty_file', message: 'Die Datei ist leer.' });
  });

  it('is for anyone signed in, also without a permission level, and for nobody else', async () => {
    const neu = await t.signIn('neu@demo.local');
    expect((await check(sealed, neu)).statusCode).toBe(200);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/backend/signature/check',
      headers: { 'content-type': 'application/pdf' },
      payload: sealed,
    });
    expect(anonymous.statusCode).toBe(401);
    // Refused before the body is read, whatever it is.
    const anonymousJson = await t.app.inject({
      method: 'POST',
      url: '/backend/signature/check',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(anonymousJson.statusCode).toBe(401);
  });
});
