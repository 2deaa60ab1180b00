import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import type { ApprovalRequest, EnvelopeView, ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { createDocusignProvider } from '../signature/docusign/docusign-provider.js';
import { richestDemoMatch } from '../templates/samples.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { type DocusignFake, startDocusignFake } from '../test/docusign-fake.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const demo: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
/** Remote (1000 − 876) ÷ 1000 = 12,4 %. */
const THIN: ResolvedMatch = { ...demo, matchId: 'PL-91001', vk: 1000, ek: 876, vk2: 1000, ek2: 800 };
const PUBLIC_URL = 'http://localhost:3000';

const partnerContract = {
  Absender_UserName: 'Berta Berater',
  Absender_Email: 'berater@demo.local',
  Projektpartner_UserName: 'Paul Partner',
  Projektpartner_Email: 'paul@partner.example',
  vertragspartner_type: 'pp',
};

/**
 * Freigabe in DocuSign mode, against the local DocuSign fake: an envelope that needs approval never
 * reaches DocuSign as a draft its sender could send there; once approved, it is created at DocuSign
 * already sent, once.
 */
describe('Freigabe with DocuSign', () => {
  let db: Db;
  let t: TestApp;
  let fake: DocusignFake;
  let berater: string;
  let leitung: string;

  beforeAll(async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ids = { integrationKey: 'ik-test', userId: 'user-test', accountId: 'account-test' };
    fake = await startDocusignFake({
      ...ids,
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    });
    db = await pgliteTestDatabase.open();
    await new MatchStore(db).upsertMany([THIN]);
    const signature = {
      kind: 'docusign' as const,
      linkValidDays: 14,
      reminderEveryDays: 3,
      ...ids,
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      authUrl: fake.authUrl,
      basePath: fake.basePath,
      connectHmacKey: 'connect-hmac-key-for-tests',
      templates: {},
    };
    t = await createTestApp(db, {
      demoStaff: true,
      signature,
      env: { PUBLIC_URL },
      signatureProvider: createDocusignProvider(signature, { retryDelaysMs: [1, 1, 1], timeoutMs: 2_000 }),
    });
    berater = await t.signIn('berater@demo.local');
    leitung = await t.signIn('leitung@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
    await fake.close();
  });

  const creates = () => fake.requests.filter((r) => r.endpoint === 'createEnvelope');

  it('holds a thin deal as our draft, and creates it at DocuSign already sent once a leader approves', async () => {
    const generated = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/de-wm-pp-rv/${THIN.matchId}`,
      headers: bearer(berater),
      payload: { dataList: partnerContract },
    });
    expect(generated.statusCode, generated.body).toBe(200);
    const url: string = generated.json().data;
    expect(url).toMatch(/\/signatur\/[0-9a-f-]{36}$/);
    expect(creates()).toEqual([]);
    const id = url.split('/').pop() as string;
    const view: EnvelopeView = (
      await t.app.inject({
        method: 'GET',
        url: `/backend/signature/envelopes/${id}`,
        headers: bearer(berater),
      })
    ).json();
    expect(view).toMatchObject({ provider: 'docusign', status: 'created' });
    expect(view.approval?.reasonTexts).toEqual(['Marge remote 12,4 % liegt unter 15 % (WM)']);

    const asked = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/approval`,
      headers: bearer(berater),
      payload: {
        subject: 'Bitte unterschreiben',
        message: 'Danke!',
        recipients: [
          { role: 'Projektpartner', name: 'Paul Partner', email: 'paul@partner.example', routingOrder: 1 },
        ],
      },
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const request: ApprovalRequest = asked.json();
    const approved = await t.app.inject({
      method: 'POST',
      url: `/backend/approvals/${request.id}/approve`,
      headers: bearer(leitung),
      payload: {},
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().send, approved.body).toMatchObject({ state: 'done' });
    expect(creates()).toHaveLength(1);
    expect(creates()[0]?.body).toMatchObject({ status: 'sent', emailSubject: 'Bitte unterschreiben' });
    const sent: EnvelopeView = (
      await t.app.inject({
        method: 'GET',
        url: `/backend/signature/envelopes/${id}`,
        headers: bearer(berater),
      })
    ).json();
    expect(sent.status).toBe('sent');
    expect(sent.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['approval_requested', 'approved', 'sent']),
    );
  });
});
