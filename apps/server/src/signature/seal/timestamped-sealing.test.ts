import { join } from 'node:path';
import type { ResolvedMatch, SealCheck } from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { MailOutbox } from '../../mail/mail-outbox.js';
import { MatchStore } from '../../matches/match-store.js';
import { richestDemoMatch } from '../../templates/samples.js';
import { pgliteTestDatabase } from '../../test/databases.js';
import { eventually } from '../../test/eventually.js';
import { sentPartnerEnvelope, signWithLink } from '../../test/partner-envelope.js';
import { pdfsig, timestampCertificateNotAfter } from '../../test/pdf-tools.js';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.js';
import { startTestPki, type TestPki } from '../../test/test-pki.js';
import { EnvelopesRepository } from '../envelopes-repository.js';
import { EnvelopeSealer } from './envelope-sealer.js';
import { pdfSignatureParts } from './pdf-signature-parts.js';
import { sealPdf } from './seal-pdf.js';
import { SealRenewal } from './seal-renewal.js';
import { loadSeal } from './seal-store.js';
import { sealedEnvelopePdf } from './sealed-envelope-pdf.js';
import { TimestampAuthorities } from './timestamp-authority.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const PUBLIC_URL = 'https://vertraege.firma.example';
const METRICS_TOKEN = 'scraper-token-of-the-timestamp-test';
const partner = { name: 'Tessa Zeitstempel', email: 'tessa@partner.example' };
const quiet = { warn() {} };
const RENEW_DAYS_BEFORE = 90;
const DAY_MS = 24 * 3600_000;

/**
 * The seal with a timestamp authority, through the app: TSA_URL makes every seal B-LTA, a TSA that fails
 * leaves the envelope completed and its mail waiting, and the renewal run keeps archived PDFs alive.
 * On the embedded database only: the leases are the sealer's, tested on PostgreSQL with it.
 */
describe('sealing with a timestamp authority', () => {
  let pki: TestPki;
  let db: Db;
  let t: TestApp;
  let berater: string;

  beforeAll(async () => {
    pki = await startTestPki();
    db = await pgliteTestDatabase.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, {
      env: { PUBLIC_URL, METRICS_TOKEN, TSA_URL: pki.tsaUrl, TSA_TIMEOUT_SECONDS: '2' },
      demoStaff: true,
    });
    berater = await t.signIn('berater@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
    await pki.close();
  });

  const timestamping = () => ({
    authorities: new TimestampAuthorities(loadConfig({ TSA_URL: pki.tsaUrl }, '0').seal.timestamps ?? fail()),
    renewDaysBefore: RENEW_DAYS_BEFORE,
  });
  const envelopeRow = (id: string) =>
    db
      .selectFrom('envelopes')
      .select(['sealed_pdf', 'sealed_sha256', 'seal_level', 'seal_renew_at', 'seal_error'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const metric = async (name: string) => {
    const text = (
      await t.app.inject({ method: 'GET', url: '/backend/metrics', headers: bearer(METRICS_TOKEN) })
    ).body;
    return text.split('\n').filter((line) => line.startsWith(name));
  };
  const check = async (pdf: Uint8Array): Promise<SealCheck> => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/backend/signature/check',
      headers: { ...bearer(berater), 'content-type': 'application/pdf' },
      payload: Buffer.from(pdf),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('keeps a completed envelope unsealed and its mail waiting while the TSA is down, then seals it B-LTA', async () => {
    pki.tsa('down');
    const { id, link } = await sentPartnerEnvelope(t, { token: berater, matchId: match.matchId, partner });
    await signWithLink(t, link, partner.name);
    const failed = await eventually('the failed seal', async () => {
      const row = await envelopeRow(id);
      return row.seal_error ? row : undefined;
    });
    expect(failed.sealed_pdf).toBeNull();
    expect(failed.seal_level).toBeNull();
    expect(failed.seal_error).toMatch(/Kein gültiger Zeitstempel/);
    expect(t.mailer.sent.filter((m) => /abgeschlossen|unterschrieben/i.test(m.subject))).toEqual([]);
    expect(await metric('envelopes_waiting_for_seal ')).toEqual(['envelopes_waiting_for_seal 1']);

    pki.tsa('ok');
    await db.updateTable('envelopes').set({ seal_due_at: sql<Date>`now()` }).where('id', '=', id).execute();
    const seal = await loadSeal(db, { commonName: 'nicht benutzt' });
    const sealer = new EnvelopeSealer({
      db,
      envelopes: new EnvelopesRepository(db),
      outbox: new MailOutbox(db, t.mailer, 'support@demo.local', quiet),
      seal: (envelope, sealedAt) =>
        sealedEnvelopePdf(envelope, { seal, publicUrl: PUBLIC_URL, sealedAt, timestamping: timestamping() }),
      log: quiet,
    });
    // The test's run seals it, or the app's failed run if it was still looking for work when the
    // envelope came due: the TSA answers both now.
    await sealer.sealDue();
    const row = await eventually(`envelope ${id} sealed`, async () => {
      const found = await envelopeRow(id);
      return found.sealed_pdf ? found : undefined;
    });
    expect(row.seal_level).toBe('B-LTA');
    expect(row.seal_error).toBeNull();
    expect(row.seal_renew_at?.getTime()).toBeGreaterThan(Date.now());
    const report = await pdfsig(row.sealed_pdf ?? fail());
    expect(report).toMatch(/Signature #2:[\s\S]*Test-TSA Vertragsgenerator[\s\S]*Total document signed/);
    const mail = await eventually('the completion mail', async () =>
      t.mailer.sent.find(
        (m) => m.to === partner.email && m.attachments?.some((a) => a.filename.endsWith('.pdf')),
      ),
    );
    expect(mail).toBeDefined();
    expect(await metric('envelopes_waiting_for_seal ')).toEqual(['envelopes_waiting_for_seal 0']);
    expect(await metric('sealed_envelopes{')).toContain('sealed_envelopes{level="B-LTA"} 1');

    expect(await check(row.sealed_pdf ?? fail())).toMatchObject({
      verdict: 'sealed',
      envelope: { id, sealLevel: 'B-LTA' },
      signature: { valid: true, coversWholeFile: true },
    });
  });

  /** The day a sealed PDF's archive timestamp is due: its TSA certificate's end (openssl's reading) less 90 days. */
  const renewalDay = async (pdf: Uint8Array): Promise<Date> => {
    const last = pdfSignatureParts(pdf).at(-1) ?? fail();
    const notAfter = await timestampCertificateNotAfter(last.cms);
    return new Date(notAfter.getTime() - RENEW_DAYS_BEFORE * DAY_MS);
  };
  const renewalAt = (clock: { now: Date }) =>
    new SealRenewal({ db, timestamping: timestamping(), log: quiet, now: () => clock.now });
  const archivedEnvelope = () =>
    db
      .selectFrom('envelopes')
      .select(['id', 'sealed_pdf', 'sealed_sha256', 'seal_renew_at'])
      .where('seal_level', '=', 'B-LTA')
      .executeTakeFirstOrThrow();

  it('renews an archive timestamp from its TSA certificate’s end less SEAL_RENEW_DAYS_BEFORE, once with two replicas, and Prüfen knows the PDF before and after', async () => {
    const sealed = await archivedEnvelope();
    if (!sealed.sealed_pdf) throw new Error('no B-LTA envelope from the test before');
    const due = await renewalDay(sealed.sealed_pdf);
    expect(sealed.seal_renew_at).toEqual(due);

    // A second before: nothing is due.
    expect(await renewalAt({ now: new Date(due.getTime() - 1000) }).renewDue()).toBe(0);
    expect((await envelopeRow(sealed.id)).sealed_sha256).toBe(sealed.sealed_sha256);

    // A second after, the TSA signs with its next certificate; two replicas at once: one renewal.
    pki.tsa('successor');
    const after = { now: new Date(due.getTime() + 1000) };
    const renewed = await Promise.all([renewalAt(after).renewDue(), renewalAt(after).renewDue()]);
    expect(renewed[0] + renewed[1]).toBe(1);
    const row = await envelopeRow(sealed.id);
    expect(row.sealed_sha256).not.toBe(sealed.sealed_sha256);
    const pdf = row.sealed_pdf ?? fail();
    const next = await renewalDay(pdf);
    expect(next.getTime()).toBeGreaterThan(after.now.getTime());
    expect(row.seal_renew_at).toEqual(next);
    expect(
      Buffer.from(pdf).subarray(0, sealed.sealed_pdf.length).equals(Buffer.from(sealed.sealed_pdf)),
    ).toBe(true);
    expect(await pdfsig(pdf)).toMatch(
      /Signature #3:[\s\S]*Test-TSA Vertragsgenerator 2[\s\S]*Total document signed/,
    );

    expect(await check(sealed.sealed_pdf)).toMatchObject({ verdict: 'sealed', envelope: { id: sealed.id } });
    expect(await check(pdf)).toMatchObject({ verdict: 'sealed', envelope: { id: sealed.id } });
    const versions = await db
      .selectFrom('sealed_pdf_versions')
      .select('sha256')
      .where('envelope_id', '=', sealed.id)
      .execute();
    expect(versions).toHaveLength(2);
  });

  it('leaves the PDF as it is when the renewal’s TSA fails or still signs with a certificate that ends too soon, and tries again later', async () => {
    const before = await archivedEnvelope();
    const clock = { now: new Date((before.seal_renew_at ?? fail()).getTime() + 1000) };
    const renewal = renewalAt(clock);
    pki.tsa('garbage');
    try {
      expect(await renewal.renewDue()).toBe(0);
    } finally {
      pki.tsa('ok');
    }
    const afterGarbage = await envelopeRow(before.id);
    expect(afterGarbage.sealed_sha256).toBe(before.sealed_sha256);
    expect(afterGarbage.seal_renew_at?.getTime()).toBeGreaterThan(clock.now.getTime());

    // The TSA answers again, but with the certificate the PDF's last timestamp has: nothing would be gained.
    pki.tsa('successor');
    clock.now = afterGarbage.seal_renew_at ?? fail();
    try {
      expect(await renewal.renewDue()).toBe(0);
    } finally {
      pki.tsa('ok');
    }
    const row = await envelopeRow(before.id);
    expect(row.sealed_sha256).toBe(before.sealed_sha256);
    expect(row.seal_renew_at?.getTime()).toBeGreaterThan(clock.now.getTime());
  });

  it('tells a B-LTA seal of ours that no envelope here has, and a changed copy of it', async () => {
    const seal = await loadSeal(db, { commonName: 'nicht benutzt' });
    const document = await PDFDocument.create();
    document.addPage();
    const sealed = await sealPdf(
      await document.save(),
      seal,
      { reason: 'Test', location: PUBLIC_URL, contact: PUBLIC_URL, signingTime: new Date() },
      timestamping(),
    );
    expect(await check(sealed.pdf)).toMatchObject({
      verdict: 'unknown_envelope',
      signature: { valid: true, coversWholeFile: true },
    });
    const appended = Buffer.concat([sealed.pdf, Buffer.from('\n% später ergänzt\n')]);
    expect(await check(appended)).toMatchObject({
      verdict: 'changed',
      signature: { coversWholeFile: false },
    });
    // A byte inside the DSS, after the signature but under the document timestamp.
    const inDss = Buffer.from(sealed.pdf);
    const at = inDss.indexOf('/DSS');
    expect(at).toBeGreaterThan(0);
    inDss[at + 1] = 'X'.charCodeAt(0);
    expect(await check(inDss)).toMatchObject({
      verdict: 'changed',
      signature: { valid: true, coversWholeFile: false },
    });
  });
});

function fail(): never {
  throw new Error('missing');
}
