import { join } from 'node:path';
import type { ContractRecord } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { fillRates } from '../db/migrations/0032_contract_rates.js';
import { seedDemoMatches } from '../matches/demo.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { docxText } from '../test/docx-text.js';
import { generatedDocument, markSignedElsewhere } from '../test/signed-documents.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');

/**
 * An extension (Verlängerung) of demo match PL-10001: Elbwerk Logistik AG, 04.01.2027–30.06.2027,
 * VK 118 / onsite 128, 40 hours a week, „4 Wochen zum Monatsende“.
 */
describe.each(testDatabases())('an extension on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;
  let consultant: string;
  let orderId: string;

  beforeAll(async () => {
    db = await database.open();
    await seedDemoMatches(join(configDir, 'demo-matches.json'), new MatchStore(db));
    t = await createTestApp(db, { demoStaff: true });
    [legal, consultant] = await Promise.all([t.signIn('legal@demo.local'), t.signIn('berater@demo.local')]);
    const order = await generatedDocument(t, legal, 'docx-de-wm-ev', 'PL-10001', {
      vertragspartner_type: 'k',
    });
    const signed = await markSignedElsewhere(t, legal, order, 'signedOn=2026-11-20&signedBy=Frau%20Kunde');
    expect(signed.statusCode, signed.body).toBe(201);
    orderId = signed.json().contractId;
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const record = async (id: string) =>
    (
      await t.app.inject({ method: 'GET', url: `/backend/contracts/${id}`, headers: bearer(legal) })
    ).json() as ContractRecord;
  const extension = (dataList: Record<string, unknown>, token = legal) =>
    t.app.inject({
      method: 'POST',
      url: '/backend/generateDocx/verlaengerung-de-wm-k/PL-10001',
      headers: bearer(token),
      payload: { dataList: { vertragspartner_type: 'k', ...dataList } },
    });
  const documentCount = async () =>
    Number(
      (
        await db
          .selectFrom('documents')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('keeps the rates of the contract’s side from its document, also for a record made before they were kept', async () => {
    const rates = { remote: '118', onsite: '128', hoursPerWeek: '40' };
    expect((await record(orderId)).rates).toEqual(rates);
    await db
      .updateTable('contract_records')
      .set({ rate_remote: null, rate_onsite: null, hours_per_week: null })
      .execute();
    await fillRates(db as never);
    expect((await record(orderId)).rates).toEqual(rates);
  });

  it('refuses an extension without an end or ending before the contract began, in German, storing nothing', async () => {
    const before = await documentCount();
    const missing = await extension({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ neuesEnde: ['Bitte gib das neue Vertragsende an.'] });
    const early = await extension({ neuesEnde: '2026-12-31' });
    expect(early.statusCode).toBe(400);
    expect(early.json().fields).toEqual({
      neuesEnde: ['Das neue Ende (31.12.2026) liegt vor dem Beginn des Vertrags (04.01.2027).'],
    });
    expect((await extension({ neuesEnde: '2027-12-31' }, consultant)).statusCode).toBe(403);
    expect(await documentCount()).toBe(before);
  });

  it('states the new end and rate, and once signed moves the end, notice deadline and rate of the contract it extends', async () => {
    const made = await extension({ neuesEnde: '31.12.2027', neuerSatzRemote: '125,50' });
    expect(made.statusCode, made.body).toBe(200);
    const documentId = made.headers['x-document-id'] as string;
    const file = await db
      .selectFrom('documents as d')
      .innerJoin('document_versions as v', 'v.document_id', 'd.id')
      .select(['d.file_name', 'v.content'])
      .where('d.id', '=', documentId)
      .executeTakeFirstOrThrow();
    expect(file.file_name).toBe('PL-10001 Verlängerung Kunde Elbwerk Logistik AG.docx');
    const text = docxText(file.content);
    expect(text).toContain('Die Laufzeit des Einzelauftrags wird bis zum 31.12.2027 verlängert.');
    // Only what changes is named; the rest stays as agreed.
    expect(text).toContain('Stundensatz remote (neu)\n125,50 €');
    expect(text).toContain('Im Übrigen bleiben die vereinbarten Stundensätze unverändert.');
    expect(text).not.toContain('Stundensatz vor Ort (neu)');
    expect(text).toContain('wöchentliche Auslastung bleibt unverändert');

    const signed = await markSignedElsewhere(
      t,
      legal,
      documentId,
      'signedOn=2026-12-01&signedBy=Frau%20Kunde',
    );
    expect(signed.statusCode, signed.body).toBe(201);
    const extensionId = signed.json().contractId as string;

    const extended = await record(orderId);
    expect(extended).toMatchObject({
      endDate: '2027-12-31',
      // Four weeks to a month's end before 31.12.2027: Friday 03.12.2027.
      lastNoticeDay: '2027-12-03',
      rates: { remote: '125.5', onsite: '128', hoursPerWeek: '40' },
    });
    expect(extended.history.at(-1)).toMatchObject({
      type: 'extended',
      actor: 'legal@demo.local',
      detail: `Verlängert bis 31.12.2027 (bisher 30.06.2027); Stundensatz remote 125,50 €. Verlängerung ${extensionId}`,
    });
    const own = await record(extensionId);
    expect(own).toMatchObject({ kind: 'verlaengerung', endDate: '2027-12-31', rates: { remote: '125.5' } });
    expect(own.chain.map((entry) => [entry.id, entry.relation])).toEqual([
      [orderId, null],
      [extensionId, 'changes'],
    ]);
  });

  it('lets an extension signed before the applied one, recorded later, change only its own record', async () => {
    const earlier = await extension({ neuesEnde: '2027-09-30', neueStundenProWoche: 32 });
    const signed = await markSignedElsewhere(
      t,
      legal,
      earlier.headers['x-document-id'] as string,
      'signedOn=2026-11-25&signedBy=Frau%20Kunde',
    );
    expect(signed.statusCode, signed.body).toBe(201);
    const contract = await record(orderId);
    expect(contract).toMatchObject({ endDate: '2027-12-31', rates: { hoursPerWeek: '40' } });
    expect(contract.history.filter((entry) => entry.type === 'extended')).toHaveLength(1);
    expect(await record(signed.json().contractId)).toMatchObject({ endDate: '2027-09-30' });
  });
});
