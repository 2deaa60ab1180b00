import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import type { HistoryEntry, ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { sha256Hex } from '../shared/sha256.js';
import { richestDemoMatch } from '../templates/samples.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { connectMessage } from '../test/docusign-api/connect-message.js';
import type { DocusignFake } from '../test/docusign-fake.js';
import { docusignMode } from '../test/docusign-mode.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const HMAC_KEY = 'connect-hmac-key-for-tests';
const COMPLETED_AT = '2026-11-21T10:00:00.0000000Z';

const partnerContract = {
  Absender_UserName: 'Berta Berater',
  Absender_Email: 'berater@demo.local',
  Projektpartner_UserName: 'Paul Partner',
  Projektpartner_Email: 'paul@partner.example',
  vertragspartner_type: 'pp',
};

/**
 * generateDocusign with DocuSign as the provider, end to end through the app against the local
 * DocuSign fake: the envelope is recorded before DocuSign is called, DocuSign's answers are recorded,
 * and Connect events update the history.
 */
describe('e-signature through DocuSign', () => {
  let db: Db;
  let t: TestApp;
  let fake: DocusignFake;
  let berater: string;

  beforeAll(async () => {
    const mode = await docusignMode({ connectHmacKey: HMAC_KEY });
    fake = mode.fake;
    db = await pgliteTestDatabase.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, {
      demoStaff: true,
      signature: mode.signature,
      signatureProvider: mode.provider,
    });
    berater = await t.signIn('berater@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
    await fake.close();
  });

  const generate = (key = 'de-wm-pp-rv', dataList: object = partnerContract, idempotencyKey?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/${key}/${match.matchId}`,
      headers: { ...bearer(berater), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      payload: { dataList },
    });
  /** One click of the browser: its retries carry the same key. */
  const click = (idempotencyKey: string) => generate(undefined, undefined, idempotencyKey);
  const createCalls = () => fake.requests.filter((r) => r.endpoint === 'createEnvelope').length;

  const history = async (): Promise<HistoryEntry[]> =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/backend/matches/${match.matchId}/documents`,
        headers: bearer(berater),
      })
    ).json();

  const connect = (payload: object, key = HMAC_KEY) => {
    const body = JSON.stringify(payload);
    return t.app.inject({
      method: 'POST',
      url: '/backend/signature/docusign/connect',
      headers: {
        'content-type': 'application/json',
        'x-docusign-signature-1': createHmac('sha256', key).update(body).digest('base64'),
      },
      payload: body,
    });
  };

  it('uploads our document as a draft envelope and answers DocuSign’s sender view', async () => {
    const response = await generate();
    expect(response.statusCode, response.body).toBe(200);
    const url: string = response.json().data;
    const [envelopeId, definition] = [...fake.envelopes.entries()].at(-1) ?? [];
    // Back to our start page when the sender is done at DocuSign.
    expect(url).toBe(
      `${fake.basePath.replace(/\/restapi$/, '')}/senderview/${envelopeId}?returnUrl=${encodeURIComponent('http://localhost:8080/start')}`,
    );
    const row = await db
      .selectFrom('envelopes')
      .selectAll()
      .where('external_id', '=', envelopeId ?? '')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ provider: 'docusign', status: 'created', doc_key: 'de-wm-pp-rv' });
    // The document DocuSign got is the one stored in our history.
    const documentBase64 = (definition as { documents: { documentBase64: string }[] }).documents[0]
      ?.documentBase64;
    expect(sha256Hex(Buffer.from(documentBase64 ?? '', 'base64'))).toBe(row.document_sha256);
    expect(JSON.stringify(definition)).toContain('paul@partner.example');
    expect((await history()).find((h) => h.envelope?.id === row.id)?.envelope).toMatchObject({
      provider: 'docusign',
      status: 'created',
    });

    // DocuSign Connect reports progress; a forged report changes nothing.
    const event = (name: string, generatedDateTime: string) =>
      connectMessage(name, { envelopeId: envelopeId ?? '', generatedDateTime });
    expect((await connect(event('envelope-completed', COMPLETED_AT), 'wrong-key')).statusCode).toBe(401);
    expect((await connect(event('envelope-sent', '2026-11-21T09:00:00.0000000Z'))).statusCode).toBe(200);
    expect((await connect(event('envelope-completed', COMPLETED_AT))).statusCode).toBe(200);
    const entry = (await history()).find((h) => h.envelope?.id === row.id);
    expect(entry?.envelope?.status).toBe('completed');

    // Completed: DocuSign's combined document with its certificate is fetched and offered as the
    // signed PDF; DocuSign mails the signers itself, so no completion mail of ours goes out.
    const combined = fake.combinedDocument(envelopeId ?? '');
    await expect
      .poll(
        async () => (await history()).find((h) => h.envelope?.id === row.id)?.envelope?.signedPdfAvailable,
      )
      .toBe(true);
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/backend/signature/envelopes/${row.id}/signed-pdf`,
      headers: bearer(berater),
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.equals(combined)).toBe(true);
    const fetched = fake.requests.filter((r) => r.endpoint === 'combinedDocument');
    expect(fetched.map((r) => r.url)).toEqual([
      `/restapi/v2.1/accounts/account-test/envelopes/${envelopeId}/documents/combined?certificate=true`,
    ]);
    expect(t.mailer.sent.filter((m) => m.subject.startsWith('Abgeschlossen:'))).toEqual([]);
    // Prüfen knows it by its SHA-256.
    const checked = await t.app.inject({
      method: 'POST',
      url: '/backend/signature/check',
      headers: { ...bearer(berater), 'content-type': 'application/pdf' },
      payload: combined,
    });
    expect(checked.json()).toMatchObject({ verdict: 'sealed', envelope: { id: row.id } });
    // A repeated completion event fetches nothing again.
    expect((await connect(event('envelope-completed', COMPLETED_AT))).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.requests.filter((r) => r.endpoint === 'combinedDocument')).toHaveLength(1);
  });

  it('keeps a completed envelope whose combined document DocuSign does not hand over, and fetches it later', async () => {
    const response = await generate();
    expect(response.statusCode, response.body).toBe(200);
    const [envelopeId] = [...fake.envelopes.keys()].slice(-1);
    const row = await db
      .selectFrom('envelopes')
      .select('id')
      .where('external_id', '=', envelopeId ?? '')
      .executeTakeFirstOrThrow();
    fake.failNext('combinedDocument', { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const completed = (generatedDateTime: string) =>
      connectMessage('envelope-completed', { envelopeId: envelopeId ?? '', generatedDateTime });
    expect((await connect(completed('2026-11-21T11:00:00.0000000Z'))).statusCode).toBe(200);
    const stateOf = () =>
      db
        .selectFrom('envelopes')
        .select(['status', 'sealed_pdf', 'seal_error', 'seal_due_at'])
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
    await expect.poll(async () => (await stateOf()).seal_error).toMatch(/DocuSign/);
    expect(await stateOf()).toMatchObject({ status: 'completed', sealed_pdf: null });
    // Fetched on the next try: here DocuSign repeating its completion event makes it due at once.
    await expect
      .poll(async () => {
        await connect(completed('2026-11-21T11:05:00.0000000Z'));
        return (await stateOf()).sealed_pdf !== null;
      })
      .toBe(true);
  });

  it('records a refusal as a failed envelope and tells the user why (422), without retrying', async () => {
    const before = fake.requests.filter((r) => r.endpoint === 'createEnvelope').length;
    fake.failNext('createEnvelope', {
      status: 400,
      body: { errorCode: 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', message: 'The email address is invalid.' },
    });
    const response = await generate();
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      error: 'signature_rejected',
      message: expect.stringContaining('E-Mail'),
    });
    expect(fake.requests.filter((r) => r.endpoint === 'createEnvelope').length - before).toBe(1);
    const failed = await db
      .selectFrom('envelopes')
      .select(['status', 'error'])
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('E-Mail');
  });

  it('answers 503 when DocuSign stays unavailable, so the browser retries', async () => {
    fake.failNext('createEnvelope', { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    const response = await generate();
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toBe('signature_unavailable');
  });

  it('rides out a 429 and a 500 of DocuSign with one envelope', async () => {
    const [envelopes, calls] = [fake.envelopes.size, createCalls()];
    fake.failNext('createEnvelope', { status: 429, retryAfter: '0' }, { status: 500 });
    const response = await generate();
    expect(response.statusCode, response.body).toBe(200);
    expect(createCalls() - calls).toBe(3);
    expect(fake.envelopes.size - envelopes).toBe(1);
  });

  it('creates exactly one envelope when the browser retries a click that DocuSign answered with errors', async () => {
    const envelopes = fake.envelopes.size;
    fake.failNext('createEnvelope', { status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const failed = await click('klick-nach-500');
    expect(failed.statusCode).toBe(503);
    expect(failed.json().message).toBe(
      'DocuSign ist gerade nicht erreichbar. Bitte versuche es in einem Moment erneut.',
    );
    expect(fake.envelopes.size).toBe(envelopes);

    const retried = await click('klick-nach-500');
    expect(retried.statusCode, retried.body).toBe(200);
    const again = await click('klick-nach-500');
    expect(again.statusCode).toBe(200);
    expect(new URL(again.json().data).pathname).toBe(new URL(retried.json().data).pathname);
    expect(fake.envelopes.size - envelopes).toBe(1);
  });

  it('sends a click that arrives twice at once to DocuSign once; the second copy hears “in progress”', async () => {
    const envelopes = fake.envelopes.size;
    // Both copies pass the key check before either has recorded its envelope (rendering takes a while).
    const answers = await Promise.all([click('doppelter-klick'), click('doppelter-klick')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)?.json()).toEqual({
      error: 'in_progress',
      message: 'Dieser Umschlag wird gerade erstellt. Bitte warte einen Moment.',
    });
    expect(fake.envelopes.size - envelopes).toBe(1);
    // The browser's retry of the 409 gets the envelope the first copy made.
    const retried = await click('doppelter-klick');
    expect(retried.statusCode).toBe(200);
    expect(fake.envelopes.size - envelopes).toBe(1);
  });

  it('tells the user to look in DocuSign when it does not answer, and a retry of the click makes no second envelope', async () => {
    const envelopes = fake.envelopes.size;
    // DocuSign stores the envelope but its answer never arrives.
    fake.failNext('createEnvelope', 'hang');
    const started = Date.now();
    const lost = await click('klick-ohne-antwort');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(lost.statusCode).toBe(422);
    expect(lost.json()).toEqual({
      error: 'signature_rejected',
      message: expect.stringContaining('Bitte prüfe in DocuSign unter „Entwürfe“'),
    });
    expect(fake.envelopes.size - envelopes).toBe(1);

    const retried = await click('klick-ohne-antwort');
    expect(retried.statusCode).toBe(422);
    expect(retried.json().message).toBe(lost.json().message);
    expect(fake.envelopes.size - envelopes).toBe(1);
  });

  it('keeps the built-in signing pages closed', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/backend/signing',
      headers: { 'x-signing-token': 'x' },
    });
    expect(response.statusCode).toBe(404);
  });
});
