import { join } from 'node:path';
import {
  CATALOGUE,
  type EnvelopeView,
  type HistoryEntry,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import type { MailMessage } from '../mail/mailer.js';
import { MatchStore } from '../matches/match-store.js';
import { sha256Hex } from '../shared/sha256.js';
import { richestDemoMatch } from '../templates/samples.js';
import { pgliteTestDatabase, testDatabases } from '../test/databases.js';
import { docxText } from '../test/docx-text.js';
import { eventually } from '../test/eventually.js';
import { confirmSigningCode, signWithLink } from '../test/partner-envelope.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const PUBLIC_URL = 'https://vertraege.firma.example';

/** A customer contract with two customer signers and a copy, as legal staff would send it. */
const customerContract = {
  Absender_UserName: 'Lena Legal',
  Absender_Email: 'legal@demo.local',
  Kunde_UserName: 'Klara Kunde',
  Kunde_Email: 'klara@kunde.example',
  Kunde2_UserName: 'Karl Zweit',
  Kunde2_Email: 'karl@kunde.example',
  CC_UserName: 'Conny Copy',
  CC_Email: 'conny@firma.example',
  vertragspartner_type: 'k',
};
const partnerContract = {
  Absender_UserName: 'Berta Berater',
  Absender_Email: 'berater@demo.local',
  Projektpartner_UserName: 'Paul Partner',
  Projektpartner_Email: 'paul@partner.example',
  vertragspartner_type: 'pp',
};

/** A 1×1 PNG, as the signing page's drawing pad would send it. */
const PNG_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe.each(testDatabases())('e-signature with built-in signing on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;
  let berater: string;
  let leitung: string;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, { env: { PUBLIC_URL }, demoStaff: true });
    legal = await t.signIn('legal@demo.local');
    berater = await t.signIn('berater@demo.local');
    leitung = await t.signIn('leitung@demo.local');
  });
  beforeEach(() => {
    t.mailer.sent.length = 0;
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const generate = (key: string, dataList: object, token = legal, idempotencyKey?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/${key}/${match.matchId}`,
      headers: { ...bearer(token), ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      payload: { dataList },
    });

  async function createEnvelope(key = 'de-wm-k-rv-2', dataList: object = customerContract, token = legal) {
    const response = await generate(key, dataList, token);
    expect(response.statusCode, response.body).toBe(200);
    const url: string = response.json().data;
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/signatur/[0-9a-f-]{36}$`));
    return url.split('/').pop() as string;
  }

  const envelope = (id: string, token = legal) =>
    t.app.inject({ method: 'GET', url: `/backend/signature/envelopes/${id}`, headers: bearer(token) });

  const send = (id: string, payload: object, token = legal) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/send`,
      headers: bearer(token),
      payload,
    });

  async function sendAsDrafted(id: string, token = legal) {
    const view: EnvelopeView = (await envelope(id, token)).json();
    const response = await send(
      id,
      {
        subject: view.subject,
        message: 'Bitte bis Freitag unterschreiben.',
        recipients: view.recipients.map(({ role, name, email, routingOrder }) => ({
          role,
          name,
          email,
          routingOrder,
        })),
      },
      token,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as EnvelopeView;
  }

  const signer = (method: 'GET' | 'POST', path: string, token: string | null, payload?: object) =>
    t.app.inject({
      method,
      url: `/backend/signing${path}`,
      headers: {
        ...(token === null ? {} : { 'x-signing-token': token }),
        'user-agent': 'Testbrowser/1.0',
      },
      ...(payload ? { payload } : {}),
    });

  /** Waits for the outbox to mail `to` and returns those messages. */
  const mailsTo = (to: string, count = 1): Promise<MailMessage[]> =>
    eventually(`${count} mails to ${to}`, () => {
      const found = t.mailer.sent.filter((m) => m.to === to);
      return found.length >= count ? found : undefined;
    });

  async function linkTokenFor(to: string): Promise<string> {
    const [mail] = await mailsTo(to);
    const token = mail?.text.match(new RegExp(`${PUBLIC_URL}/unterschreiben#([A-Za-z0-9_-]+)`))?.[1];
    if (!token) throw new Error(`no link in ${mail?.text}`);
    return token;
  }

  it('creates the envelope as a draft from the dataList and answers the sender view URL', async () => {
    const id = await createEnvelope();
    const response = await envelope(id);
    expect(response.statusCode).toBe(200);
    const view: EnvelopeView = response.json();
    expect(view).toMatchObject({
      provider: 'builtin',
      status: 'created',
      matchId: match.matchId,
      docKey: 'de-wm-k-rv-2',
      sender: { name: 'Lena Legal', email: 'legal@demo.local' },
      createdBy: 'legal@demo.local',
      pdfAvailable: false,
    });
    expect(view.recipients.map((r) => [r.routingOrder, r.role, r.name, r.status])).toEqual([
      [1, 'Kunde', 'Klara Kunde', 'waiting'],
      [2, 'Kunde2', 'Karl Zweit', 'waiting'],
      [2, 'CC', 'Conny Copy', 'copy'],
    ]);
    expect(view.events.map((e) => e.type)).toEqual(['created']);
    // The envelope carries exactly the stored document, which names both customer signers.
    const file = await t.app.inject({
      method: 'GET',
      url: `/backend/signature/envelopes/${id}/document`,
      headers: bearer(legal),
    });
    expect(file.statusCode).toBe(200);
    expect(sha256Hex(file.rawPayload)).toBe(view.documentSha256);
    const text = await docxText(file.rawPayload);
    expect(text).toContain('Klara Kunde');
    expect(text).toContain('Karl Zweit');
    expect(t.mailer.sent).toEqual([]);
  });

  it('answers a retried request with the same envelope instead of making another', async () => {
    const first = await generate('de-we-pp-ev', partnerContract, berater, 'klick-0001-wiederholt');
    const retry = await generate('de-we-pp-ev', partnerContract, berater, 'klick-0001-wiederholt');
    expect(first.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    const count = await db
      .selectFrom('envelopes')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('request_key', '=', 'klick-0001-wiederholt')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    // Another user's click with the same key is another envelope.
    const other = await generate('de-we-pp-ev', partnerContract, leitung, 'klick-0001-wiederholt');
    expect(other.json().data).not.toBe(first.json().data);
  });

  it('refuses a key that is not an e-signature document, a wrong dataList and a foreign permission', async () => {
    expect((await generate('docx-de-wm-rv', { vertragspartner_type: 'k' })).statusCode).toBe(404);
    const missingSigner = await generate('de-wm-k-rv-2', { ...customerContract, Kunde2_Email: '' });
    expect(missingSigner.statusCode).toBe(400);
    expect(missingSigner.json().fields).toHaveProperty('Kunde2_Email');
    // Consultants send partner contracts only.
    expect((await generate('de-wm-k-rv-1', customerContract, berater)).statusCode).toBe(403);
  });

  it('the whole flow: send, both customers sign in order, completion with certificate and mails', async () => {
    const id = await createEnvelope();
    const sent = await sendAsDrafted(id);
    expect(sent.status).toBe('sent');
    expect(sent.recipients.map((r) => r.status)).toEqual(['sent', 'waiting', 'copy']);

    // Only the first signer is invited; the second waits for their turn.
    const klaraToken = await linkTokenFor('klara@kunde.example');
    const [invitation] = await mailsTo('klara@kunde.example');
    expect(invitation).toMatchObject({ replyTo: 'legal@demo.local' });
    expect(invitation?.text).toContain('Lena Legal (legal@demo.local) bittet dich');
    expect(invitation?.text).toContain('Bitte bis Freitag unterschreiben.');
    expect(t.mailer.sent.filter((m) => m.to === 'karl@kunde.example')).toEqual([]);

    const opened = await signer('GET', '', klaraToken);
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({
      signer: { name: 'Klara Kunde', email: 'k***@kunde.example', role: 'Kunde' },
      sender: { name: 'Lena Legal', email: 'legal@demo.local' },
      documentSha256: sent.documentSha256,
      state: 'open',
      verification: { required: true, verified: false, email: 'k***@kunde.example' },
    });
    await confirmSigningCode(t, klaraToken);
    expect((await signer('GET', '', klaraToken)).json()).toMatchObject({
      signer: { email: 'klara@kunde.example' },
      message: 'Bitte bis Freitag unterschreiben.',
      verification: { required: true, verified: true },
    });
    const document = await signer('GET', '/document', klaraToken);
    expect(sha256Hex(document.rawPayload)).toBe(sent.documentSha256);

    const signed = await signer('POST', '/sign', klaraToken, {
      consent: true,
      typedName: 'Klara Kunde',
      drawnSignature: PNG_DATA_URL,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().state).toBe('signed');
    // A used link shows what happened and nothing more.
    const reused = await signer('GET', '', klaraToken);
    expect(reused.statusCode).toBe(410);
    expect(reused.json()).toMatchObject({ error: 'link_used', message: expect.stringMatching(/bereits am/) });
    expect((await signer('GET', '/document', klaraToken)).statusCode).toBe(410);

    const karlToken = await linkTokenFor('karl@kunde.example');
    expect(karlToken).not.toBe(klaraToken);
    await confirmSigningCode(t, karlToken);
    expect(
      (await signer('POST', '/sign', karlToken, { consent: true, typedName: 'Karl Zweit' })).statusCode,
    ).toBe(200);

    const done: EnvelopeView = (await envelope(id)).json();
    expect(done.status).toBe('completed');
    expect(done.recipients.map((r) => r.status)).toEqual(['signed', 'signed', 'copy']);
    expect(done.events.map((e) => e.type)).toEqual([
      'created',
      'sent',
      'opened',
      'verified',
      'signed',
      'opened',
      'verified',
      'signed',
      'completed',
    ]);
    const signedEvent = done.events.find((e) => e.type === 'signed');
    expect(signedEvent).toMatchObject({ actor: 'klara@kunde.example', userAgent: 'Testbrowser/1.0' });
    expect(signedEvent?.ip).toBeTruthy();

    const certificate = await t.app.inject({
      method: 'GET',
      url: `/backend/signature/envelopes/${id}/certificate`,
      headers: bearer(legal),
    });
    expect(certificate.statusCode).toBe(200);
    expect(certificate.headers['content-type']).toBe('application/pdf');
    expect(certificate.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // Everyone gets document and certificate: both signers, the copy and the sender.
    for (const party of [
      'klara@kunde.example',
      'karl@kunde.example',
      'conny@firma.example',
      'legal@demo.local',
    ]) {
      // The signers also got their invitation and their code.
      const mails = await mailsTo(party, party.endsWith('kunde.example') ? 3 : 1);
      const completion = mails.find((m) => m.subject.startsWith('Abgeschlossen:'));
      expect(
        completion?.attachments?.map((a) => a.contentType),
        party,
      ).toEqual([
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'application/pdf',
      ]);
      expect(sha256Hex(completion?.attachments?.[0]?.content ?? new Uint8Array())).toBe(done.documentSha256);
    }

    const history: HistoryEntry[] = (
      await t.app.inject({
        method: 'GET',
        url: `/backend/matches/${match.matchId}/documents`,
        headers: bearer(legal),
      })
    ).json();
    const entry = history.find((h) => h.envelope?.id === id);
    expect(entry).toMatchObject({
      docKey: 'de-wm-k-rv-2',
      status: 'ready',
      version: 1,
      envelope: { status: 'completed', certificateAvailable: true },
    });
  });

  it('a link opens only its own envelope and step; guessed, expired and withdrawn links are refused', async () => {
    const id = await createEnvelope('de-wm-pp-rv', partnerContract, berater);
    await sendAsDrafted(id, berater);
    const token = await linkTokenFor('paul@partner.example');

    for (const guess of [
      null,
      '',
      'x',
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      '../../etc/passwd',
    ]) {
      const response = await signer('GET', '', guess);
      expect(response.statusCode, String(guess)).toBe(404);
      expect(response.json().error).toBe('link_invalid');
    }
    // A staff token is no signer link.
    expect((await signer('GET', '', berater)).statusCode).toBe(404);

    await db
      .updateTable('envelope_recipients')
      .set({ token_expires_at: new Date(Date.now() - 1000) })
      .where('token_sha256', '=', sha256Hex(token))
      .execute();
    const expired = await signer('POST', '/sign', token, { consent: true, typedName: 'Paul Partner' });
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({
      error: 'link_expired',
      message: expect.stringContaining('Berta Berater (berater@demo.local)'),
    });
    await db
      .updateTable('envelope_recipients')
      .set({ token_expires_at: new Date(Date.now() + 3600_000) })
      .where('token_sha256', '=', sha256Hex(token))
      .execute();

    const voided = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/void`,
      headers: bearer(berater),
      payload: { reason: 'Falscher Tagessatz' },
    });
    expect(voided.statusCode).toBe(200);
    expect(voided.json().status).toBe('voided');
    const [withdrawn] = (await mailsTo('paul@partner.example', 2)).filter((m) =>
      m.subject.startsWith('Zurückgezogen'),
    );
    expect(withdrawn?.text).toContain('Falscher Tagessatz');
    const afterVoid = await signer('GET', '', token);
    expect(afterVoid.statusCode).toBe(409);
    expect(afterVoid.json()).toMatchObject({
      error: 'envelope_closed',
      message: expect.stringMatching(/zurückgezogen/),
    });
  });

  it('declining ends the envelope and tells the sender why', async () => {
    const id = await createEnvelope();
    await sendAsDrafted(id);
    const token = await linkTokenFor('klara@kunde.example');
    await confirmSigningCode(t, token);
    expect((await signer('POST', '/decline', token, { reason: '' })).statusCode).toBe(400);
    const declined = await signer('POST', '/decline', token, { reason: 'Der Stundensatz stimmt nicht.' });
    expect(declined.statusCode).toBe(200);
    expect(declined.json().state).toBe('declined');
    const view: EnvelopeView = (await envelope(id)).json();
    expect(view.status).toBe('declined');
    expect(view.recipients[0]).toMatchObject({
      status: 'declined',
      declineReason: 'Der Stundensatz stimmt nicht.',
    });
    const [notice] = await mailsTo('legal@demo.local');
    expect(notice?.subject).toMatch(/^Abgelehnt:/);
    expect(notice?.text).toContain('Der Stundensatz stimmt nicht.');
    expect(notice?.replyTo).toBe('klara@kunde.example');
    // The second signer is never invited, and the link is used.
    expect(t.mailer.sent.filter((m) => m.to === 'karl@kunde.example')).toEqual([]);
    expect(
      (await signer('POST', '/sign', token, { consent: true, typedName: 'Klara Kunde' })).statusCode,
    ).toBe(410);
  });

  it('checks what the sender and the signers submit', async () => {
    const id = await createEnvelope();
    const noSigner = await send(id, {
      subject: 'Vertrag',
      message: '',
      recipients: [{ role: 'CC', name: 'Conny', email: 'conny@firma.example', routingOrder: 1 }],
    });
    expect(noSigner.statusCode).toBe(400);
    expect(noSigner.json().fields).toHaveProperty('recipients');
    const badEmail = await send(id, {
      subject: 'Vertrag',
      message: '',
      recipients: [{ role: 'Kunde', name: 'Klara', email: 'klara@', routingOrder: 1 }],
    });
    expect(badEmail.json().fields).toHaveProperty(['recipients.0.email']);
    expect((await envelope(id)).json().status).toBe('created');

    await sendAsDrafted(id);
    const again = await send(id, {
      subject: 'Nochmal',
      message: '',
      recipients: [{ role: 'Kunde', name: 'Klara', email: 'klara@kunde.example', routingOrder: 1 }],
    });
    expect(again.statusCode).toBe(409);

    const token = await linkTokenFor('klara@kunde.example');
    const noConsent = await signer('POST', '/sign', token, { consent: false, typedName: 'Klara Kunde' });
    expect(noConsent.statusCode).toBe(400);
    expect(noConsent.json().fields).toHaveProperty('consent');
    const notPng = await signer('POST', '/sign', token, {
      consent: true,
      typedName: 'Klara Kunde',
      drawnSignature: `data:image/png;base64,${Buffer.from('<svg onload=alert(1)>').toString('base64')}`,
    });
    expect(notPng.statusCode).toBe(400);
    expect((await signer('GET', '', token)).json().state).toBe('open');
  });

  it('shows an envelope only to those who may generate its document, and lets only its creator or legal change it', async () => {
    const customer = await createEnvelope();
    const partner = await createEnvelope('de-wm-pp-ev', partnerContract, berater);
    // Consultants may not see customer contracts; leaders may see partner contracts but not change them.
    expect((await envelope(customer, berater)).statusCode).toBe(403);
    expect((await envelope(partner, leitung)).statusCode).toBe(200);
    expect((await send(partner, { subject: 'x', message: '', recipients: [] }, leitung)).statusCode).toBe(
      403,
    );
    expect((await envelope(partner, legal)).statusCode).toBe(200);
    expect((await envelope('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await envelope('not-a-uuid')).statusCode).toBe(404);
    const history: HistoryEntry[] = (
      await t.app.inject({
        method: 'GET',
        url: `/backend/matches/${match.matchId}/documents`,
        headers: bearer(berater),
      })
    ).json();
    expect(history.some((h) => h.envelope?.id === partner)).toBe(true);
    expect(history.some((h) => h.envelope?.id === customer)).toBe(false);
    const neu = await t.signIn('neu@demo.local');
    expect((await envelope(partner, neu)).statusCode).toBe(403);
  });
});

/** Every e-signature key of the catalogue through the whole built-in flow. */
describe('every e-signature key signs to completion', () => {
  let db: Db;
  let t: TestApp;
  let legal: string;

  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, { demoStaff: true });
    legal = await t.signIn('legal@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const keys = [...CATALOGUE.values()].filter((entry) => entry.form === 'docusign');

  it('covers the 26 keys', () => {
    expect(keys).toHaveLength(26);
  });

  it.each(keys.map((entry) => [entry.key, entry] as const))('%s', async (_key, entry) => {
    if (entry.params.family !== 'contract') throw new Error('e-signature keys are contracts');
    const { partner, customerSigners } = entry.params;
    const signers =
      partner === 'pp'
        ? {
            Projektpartner_UserName: 'Paul Partner',
            Projektpartner_Email: `paul.${entry.key}@partner.example`,
          }
        : {
            Kunde_UserName: 'Klara Kunde',
            Kunde_Email: `klara.${entry.key}@kunde.example`,
            ...(customerSigners === 2
              ? { Kunde2_UserName: 'Karl Zweit', Kunde2_Email: `karl.${entry.key}@kunde.example` }
              : {}),
          };
    const created = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/${entry.key}/${match.matchId}`,
      headers: bearer(legal),
      payload: {
        dataList: {
          Absender_UserName: 'Lena Legal',
          Absender_Email: 'legal@demo.local',
          ...signers,
          vertragspartner_type: partner,
        },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = (created.json().data as string).split('/').pop() as string;
    const draft: EnvelopeView = (
      await t.app.inject({ method: 'GET', url: `/backend/signature/envelopes/${id}`, headers: bearer(legal) })
    ).json();
    const recipients = draft.recipients.map(({ role, name, email, routingOrder }) => ({
      role,
      name,
      email,
      routingOrder,
    }));
    expect(recipients).toHaveLength(partner === 'pp' ? 1 : customerSigners);
    const sent = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/send`,
      headers: bearer(legal),
      payload: { subject: draft.subject, message: '', recipients },
    });
    expect(sent.statusCode, sent.body).toBe(200);

    // Each signer in turn: the invitation arrives only when it is their turn.
    for (const recipient of recipients) {
      const token = await eventually(
        `the invitation to ${recipient.email}`,
        () =>
          t.mailer.sent
            .find((m) => m.to === recipient.email)
            ?.text.match(/unterschreiben#([A-Za-z0-9_-]+)/)?.[1],
      );
      await signWithLink(t, token, recipient.name);
    }
    const done: EnvelopeView = (
      await t.app.inject({ method: 'GET', url: `/backend/signature/envelopes/${id}`, headers: bearer(legal) })
    ).json();
    expect(done.status).toBe('completed');
    const certificate = await t.app.inject({
      method: 'GET',
      url: `/backend/signature/envelopes/${id}/certificate`,
      headers: bearer(legal),
    });
    expect(certificate.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
