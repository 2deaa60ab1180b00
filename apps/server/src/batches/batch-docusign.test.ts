import { join } from 'node:path';
import type { Batch, ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { richestDemoMatch } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import type { DocumentEnvelope, DocusignFake } from '../test/docusign-fake.js';
import { docusignMode } from '../test/docusign-mode.js';
import { eventually } from '../test/eventually.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const demo: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
/** Margins of 25 % and more: sent at once. */
const HEALTHY: ResolvedMatch = { ...demo, matchId: 'PL-92001', ek: 90, vk: 120, ek2: 95, vk2: 130 };
/** Remote (1000 − 876) ÷ 1000 = 12,4 %, below WM's 15 %: held for Freigabe. */
const THIN: ResolvedMatch = { ...demo, matchId: 'PL-92002', ek: 876, vk: 1000, ek2: 800, vk2: 1000 };
/** WM's countersignatory (config/signatories.json). */
const WM_SIGNATORY = { id: 'henrik-albers', email: 'henrik.albers@wm-consulting.example' };
const PARTNER_CONTRACT = 'de-wm-pp-rv';

/**
 * Serien in DocuSign mode, against the local DocuSign fake (which refuses what DocuSign's API
 * description does not allow): a deal that needs no Freigabe is created at DocuSign already sent, with
 * the batch's countersignatory; one that needs it never reaches DocuSign until approved. Each deal's
 * envelope is created at DocuSign once.
 */
describe.each(testDatabases())('Serien with DocuSign on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let fake: DocusignFake;
  let legal: string;
  let leader: string;

  beforeAll(async () => {
    const mode = await docusignMode();
    fake = mode.fake;
    db = await database.open();
    await new MatchStore(db).upsertMany([HEALTHY, THIN]);
    t = await createTestApp(db, {
      demoStaff: true,
      signature: mode.signature,
      signatureProvider: mode.provider,
    });
    [legal, leader] = await Promise.all([t.signIn('legal@demo.local'), t.signIn('leitung@demo.local')]);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
    await fake.close();
  });

  const call = (method: 'GET' | 'POST', url: string, token = legal, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload }) });
  const read = async (id: string): Promise<Batch> => (await call('GET', `/backend/batches/${id}`)).json();
  const created = () => fake.requests.filter((r) => r.endpoint === 'createEnvelope');
  const envelope = (id: string | null) =>
    db
      .selectFrom('envelopes')
      .select(['status', 'external_id', 'provider'])
      .where('id', '=', id ?? '')
      .executeTakeFirstOrThrow();

  it('creates the healthy deal’s envelope at DocuSign sent, with the countersignatory; the thin one only once approved', async () => {
    const csv = [
      'Match-ID;Unterzeichner;Unterzeichner E-Mail',
      `${HEALTHY.matchId};Paula Partner;paula@partner.example`,
      `${THIN.matchId};Theo Thin;theo@partner.example`,
    ].join('\n');
    const checked = await call('POST', '/backend/batches', legal, {
      docKey: PARTNER_CONTRACT,
      values: {},
      file: { name: 'partner.csv', content: Buffer.from(csv).toString('base64') },
      send: { countersignatory: WM_SIGNATORY.id, message: 'Bitte bis Freitag.' },
    });
    expect(checked.statusCode, checked.body).toBe(201);
    const id = checked.json().id as string;
    expect((await call('POST', `/backend/batches/${id}/start`)).statusCode).toBe(200);
    const batch = await eventually('batch finished', async () => {
      const read_ = await read(id);
      return read_.status === 'finished' ? read_ : undefined;
    });
    const [healthy, thin] = batch.items;
    if (!healthy || !thin) throw new Error('two deals expected');
    expect([healthy.status, thin.status]).toEqual(['done', 'approval']);

    // One envelope at DocuSign: the healthy deal's, sent with the partner and the company.
    expect(created()).toHaveLength(1);
    const sent = await envelope(healthy.envelopeId);
    expect(sent).toMatchObject({ status: 'sent', provider: 'docusign' });
    const definition = fake.envelopes.get(sent.external_id ?? '') as DocumentEnvelope;
    expect(definition.status).toBe('sent');
    expect(definition.emailBlurb).toBe('Bitte bis Freitag.');
    expect(definition.recipients.signers.map((signer) => signer.email)).toEqual([
      'paula@partner.example',
      WM_SIGNATORY.email,
    ]);
    expect(await envelope(thin.envelopeId)).toMatchObject({ status: 'created', external_id: null });

    const approved = await call('POST', `/backend/approval-batches/${id}/approve`, leader, {});
    expect(approved.statusCode, approved.body).toBe(200);
    await eventually('the thin deal sent', async () =>
      (await envelope(thin.envelopeId)).status === 'sent' ? true : undefined,
    );
    expect(created()).toHaveLength(2);
    const later = fake.envelopes.get((await envelope(thin.envelopeId)).external_id ?? '') as DocumentEnvelope;
    expect(later.recipients.signers.map((signer) => signer.email)).toEqual([
      'theo@partner.example',
      WM_SIGNATORY.email,
    ]);

    // Tried again, a deal finds its envelope sent: DocuSign is not asked a second time.
    await db.updateTable('batch_items').set({ status: 'failed' }).where('id', '=', healthy.id).execute();
    expect((await call('POST', `/backend/batches/${id}/retry`)).statusCode).toBe(200);
    await eventually('batch finished again', async () =>
      (await read(id)).status === 'finished' ? true : undefined,
    );
    expect((await read(id)).items[0]).toMatchObject({ status: 'done', envelopeId: healthy.envelopeId });
    expect(created()).toHaveLength(2);
  });
});
