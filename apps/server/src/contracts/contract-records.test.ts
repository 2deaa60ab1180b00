import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CONTRACT_STATUSES,
  type ContractRecord,
  type ContractsPage,
  contractsQuerySchema,
} from '@vertragsgenerator/domain';
import { parse } from 'csv-parse/sync';
import { readSheet } from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreBackup } from '../backup/restore-backup.js';
import { writeBackup } from '../backup/write-backup.js';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { seedDemoMatches } from '../matches/demo.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { sentPartnerEnvelope, signWithLink } from '../test/partner-envelope.js';
import { generatedDocument, markSignedElsewhere, SIGNED_PDF } from '../test/signed-documents.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';
import { contractsPage } from './contract-queries.js';
import { ContractRecorder } from './contract-recorder.js';

const { configDir } = loadConfig({}, '0');

describe.each(testDatabases())('running contracts on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;
  let leader: string;
  let berta: string;
  let anna: string;
  let nobody: string;

  beforeAll(async () => {
    db = await database.open();
    await seedDemoMatches(join(configDir, 'demo-matches.json'), new MatchStore(db));
    t = await createTestApp(db, { demoStaff: true });
    [legal, leader, berta, anna, nobody] = await Promise.all([
      t.signIn('legal@demo.local'),
      t.signIn('leitung@demo.local'),
      t.signIn('berater@demo.local'),
      t.signIn('anna.albrecht@demo.local', 'Anna Albrecht'),
      t.signIn('neu@demo.local'),
    ]);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const list = async (token: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/backend/contracts${query}`, headers: bearer(token) });
  const record = async (token: string, id: string) =>
    t.app.inject({ method: 'GET', url: `/backend/contracts/${id}`, headers: bearer(token) });

  const generated = (key: string, matchId: string, dataList: Record<string, unknown>) =>
    generatedDocument(t, legal, key, matchId, dataList);
  const signedElsewhere = (documentId: string, query: string, body: Buffer = SIGNED_PDF, token = legal) =>
    markSignedElsewhere(t, token, documentId, query, body);

  it('records a completed envelope once, with the dates and notice deadline its document was made with', async () => {
    const { id, link } = await sentPartnerEnvelope(t, {
      token: berta,
      matchId: 'PL-10001',
      partner: { name: 'Jana Kowalski', email: 'jana@kowalski.example' },
    });
    // The CRM changes after the document was made: the record keeps what the document says.
    const stored = await db
      .selectFrom('matches')
      .select('record')
      .where('match_id', '=', 'PL-10001')
      .executeTakeFirstOrThrow();
    await new MatchStore(db).upsertMany([{ ...stored.record, matchId: 'PL-10001', enddatum: '2027-12-31' }]);
    await signWithLink(t, link, 'Jana Kowalski');
    const rows = await db.selectFrom('contract_records').selectAll().where('envelope_id', '=', id).execute();
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      kind: 'einzelauftrag',
      company: 'we',
      partner_type: 'pp',
      counterparty: 'Jana Kowalski IT-Beratung',
      customer: 'Elbwerk Logistik AG',
      consultant: 'Anna Albrecht',
      start_date: '2027-01-04',
      end_date: '2027-06-30',
      notice_text: '4 Wochen zum Monatsende',
      notice_rule_source: 'read',
      // 30.06.2027 is a month's end; four weeks before it, counted by § 188(2) BGB: Wednesday 02.06.2027.
      last_notice_day: '2027-06-02',
      terms_source: 'document',
    });
    // The sweep that fills in what is missing finds nothing more to do, however often it runs.
    const recorder = new ContractRecorder(db, { companies: {} });
    expect(await recorder.recordMissing()).toBe(0);
    expect(await recorder.recordMissing()).toBe(0);
  });

  it('builds the records of envelopes completed before records existed, once, run twice or by two at once', async () => {
    const before = await db
      .selectFrom('contract_records')
      .select(['envelope_id', 'last_notice_day'])
      .execute();
    await db.deleteFrom('contract_events').execute();
    await db.deleteFrom('contract_records').execute();
    const made = await Promise.all([
      new ContractRecorder(db, { companies: {} }).recordMissing(),
      new ContractRecorder(db, { companies: {} }).recordMissing(),
    ]);
    expect(made[0] + made[1]).toBe(before.length);
    expect(await new ContractRecorder(db, { companies: {} }).recordMissing()).toBe(0);
    const after = await db
      .selectFrom('contract_records')
      .select(['envelope_id', 'last_notice_day'])
      .execute();
    expect(after).toEqual(expect.arrayContaining(before));
    expect(after).toHaveLength(before.length);
  });

  it('shows every record to legal staff and leaders, a consultant only those of their deals, and none without a level', async () => {
    for (const token of [legal, leader, anna]) {
      const response = await list(token);
      expect(response.statusCode, response.body).toBe(200);
      expect((response.json() as ContractsPage).rows.map((row) => row.matchId)).toContain('PL-10001');
    }
    const own = await list(berta);
    expect(own.statusCode).toBe(200);
    expect((own.json() as ContractsPage).rows.map((row) => row.matchId)).not.toContain('PL-10001');
    const id = ((await list(anna)).json() as ContractsPage).rows[0]?.id as string;
    expect((await record(berta, id)).statusCode).toBe(404);
    expect((await record(anna, id)).statusCode).toBe(200);
    expect((await list(nobody)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/backend/contracts' })).statusCode).toBe(401);
  });

  it('records a document legal marks as signed elsewhere, refuses a second time, a non-PDF and an offer', async () => {
    const framework = await generated('docx-de-wm-rv', 'PL-10002', { vertragspartner_type: 'k' });
    const refused = await signedElsewhere(
      framework,
      'signedOn=2026-11-20&signedBy=Dr.%20Jürgen%20Müller',
      Buffer.from('PK not a pdf'),
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toMatch(/kein PDF/);
    expect((await signedElsewhere(framework, 'signedBy=X%20Y')).statusCode).toBe(400);
    const json = await t.app.inject({
      method: 'POST',
      url: `/backend/documents/${framework}/signed-elsewhere?signedOn=2026-11-20&signedBy=A%20B`,
      headers: bearer(legal),
      payload: { pdf: 'no' },
    });
    expect(json.statusCode).toBe(415);
    expect(
      (
        await signedElsewhere(
          framework,
          'signedOn=2026-11-20&signedBy=Dr.%20Jürgen%20Müller',
          SIGNED_PDF,
          leader,
        )
      ).statusCode,
    ).toBe(403);
    const made = await signedElsewhere(framework, 'signedOn=2026-11-20&signedBy=Dr.%20Jürgen%20Müller');
    expect(made.statusCode, made.body).toBe(201);
    const again = await signedElsewhere(framework, 'signedOn=2026-11-21&signedBy=Someone%20Else');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('already_recorded');
    const offer = await t.app.inject({
      method: 'POST',
      url: '/backend/generateDocxOffer/angebot-wm/PL-10002',
      headers: bearer(legal),
      payload: {
        dataList: {
          projectHours: 160,
          projectDays: 20,
          selectedPerson: 'henrik-albers',
          vertragspartner_type: 'k',
        },
      },
    });
    expect(offer.statusCode, offer.body).toBe(200);
    const notAContract = await signedElsewhere(
      offer.headers['x-document-id'] as string,
      'signedOn=2026-11-20&signedBy=A%20B',
    );
    expect(notAContract.statusCode).toBe(409);
    expect(notAContract.json().error).toBe('not_a_contract');

    const contract = (await record(legal, made.json().contractId)).json() as ContractRecord;
    expect(contract).toMatchObject({
      kind: 'rahmenvertrag',
      counterparty: 'Rheinauen Versicherung AG',
      endDate: '2027-12-31',
      noticeText: '6 Wochen zum Quartalsende',
      // 31.12.2027 is a quarter's end; six weeks before it (§ 188(2) BGB): Friday 19.11.2027.
      lastNoticeDay: '2027-11-19',
      source: { kind: 'signed_elsewhere', signedBy: 'Dr. Jürgen Müller' },
    });
    // The CRM names WE Engineering as the customer's contracting company; the document carries WM's
    // letterhead (its key), and that is who signed.
    expect(contract.parties).toEqual([
      { role: 'Gesellschaft', name: 'WM Consulting GmbH' },
      { role: 'Kunde', name: 'Rheinauen Versicherung AG' },
    ]);
  });

  it('links an Einzelauftrag under its customer’s Rahmenvertrag and a termination to the contract it ends', async () => {
    const framework = (await list(legal, '?kind=rahmenvertrag&customer=Rheinauen')).json().rows[0]
      .id as string;
    const order = await generated('docx-de-wm-ev', 'PL-10015', { vertragspartner_type: 'k' });
    const orderId = (await signedElsewhere(order, 'signedOn=2026-11-25&signedBy=Frau%20Kunde')).json()
      .contractId;
    const termination = await generated('kuendigung-wm-k-termination-gerecht', 'PL-10015', {
      selectedPerson: 'henrik-albers',
      position: 'Senior Consultant',
      vertragspartner_type: 'k',
    });
    const terminationId = (
      await signedElsewhere(termination, 'signedOn=2026-12-01&signedBy=Frau%20Kunde')
    ).json().contractId;
    const chain = ((await record(legal, terminationId)).json() as ContractRecord).chain;
    expect(chain.map((entry) => [entry.id, entry.relation, entry.depth])).toEqual([
      [framework, null, 0],
      [orderId, 'under', 1],
      [terminationId, 'ends', 2],
    ]);
    expect(chain[1]?.status).toBe('terminated');
    const open = (await list(legal, '?withoutFramework=true')).json() as ContractsPage;
    expect(open.rows.map((row) => row.id)).not.toContain(orderId);
  });

  it('lets legal set a notice rule by hand, audited, and computes the deadline again; others may not', async () => {
    const id = ((await list(legal, '?customer=Elbwerk')).json() as ContractsPage).rows[0]?.id as string;
    const url = `/backend/contracts/${id}/notice-rule`;
    const body = { rule: { amount: 3, unit: 'months', endPoint: 'quarter' }, reason: 'Laut Vertrag § 9' };
    for (const token of [leader, anna, berta])
      expect(
        (await t.app.inject({ method: 'PUT', url, headers: bearer(token), payload: body })).statusCode,
      ).toBe(403);
    const bad = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(legal),
      payload: { rule: { amount: 0, unit: 'months' }, reason: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    const set = await t.app.inject({ method: 'PUT', url, headers: bearer(legal), payload: body });
    expect(set.statusCode, set.body).toBe(200);
    const changed = (await record(legal, id)).json() as ContractRecord;
    // Three months to the quarter's end, effective 30.06.2027 (a quarter end): notice by 31.03.2027
    // (§ 188(2), (3) BGB: 31.03 + 3 months → 30.06, the last day of June).
    expect(changed).toMatchObject({ noticeRuleSource: 'manual', lastNoticeDay: '2027-03-31' });
    expect(changed.history.map((entry) => entry.type)).toContain('notice_rule_set');
    const audit = await db
      .selectFrom('audit_entries')
      .selectAll()
      .where('action', '=', 'contract.notice-rule')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor).toBe('legal@demo.local');
  });

  it('exports the current view as CSV and XLSX that a spreadsheet library reads, with the page’s filters', async () => {
    const query = 'kind=rahmenvertrag&customer=Rheinauen&sort=end';
    const csv = await t.app.inject({
      method: 'GET',
      url: `/backend/contracts/export?format=csv&${query}`,
      headers: bearer(anna),
    });
    // Anna is the consultant of PL-10001 only: the Rahmenvertrag of PL-10002 is not hers.
    expect(csv.statusCode, csv.body).toBe(200);
    const csvRows: string[][] = parse(csv.rawPayload, { delimiter: ';', bom: true });
    expect(csvRows).toHaveLength(1);
    expect(csvRows[0]?.slice(0, 3)).toEqual(['Match', 'Art', 'Status']);
    const xlsx = await t.app.inject({
      method: 'GET',
      url: `/backend/contracts/export?format=xlsx&${query}`,
      headers: bearer(legal),
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const sheet = await readSheet(xlsx.rawPayload);
    const [header, ...rows] = sheet as unknown as string[][];
    expect(rows).toHaveLength(1);
    const row = Object.fromEntries((header ?? []).map((name, index) => [name, rows[0]?.[index]]));
    expect(row).toMatchObject({
      Match: 'PL-10002',
      Art: 'Rahmenvertrag',
      Gegenseite: 'Rheinauen Versicherung AG',
      Ende: '31.12.2027',
      'Kündigungsfrist (Text)': '6 Wochen zum Quartalsende',
      'Kündigung spätestens': '19.11.2027',
    });
    const refused = await t.app.inject({
      method: 'GET',
      url: '/backend/contracts/export?format=pdf',
      headers: bearer(legal),
    });
    expect(refused.statusCode).toBe(400);
  });

  it('filters each status by the same rule that shows it, on any day', async () => {
    const everyone = { name: 'Lena Legal', permission: 2 as const };
    // Before the contracts start, while they run, weeks before their ends, and after them.
    for (const day of ['2026-12-06', '2027-05-10', '2027-11-20', '2028-03-01']) {
      const now = new Date(`${day}T10:00:00Z`);
      const all = await contractsPage(db, everyone, contractsQuerySchema.parse({}), now);
      let counted = 0;
      for (const status of CONTRACT_STATUSES) {
        const page = await contractsPage(db, everyone, contractsQuerySchema.parse({ status }), now);
        expect(
          page.rows.every((row) => row.status === status),
          `${day} ${status}`,
        ).toBe(true);
        counted += page.total;
      }
      expect(counted, day).toBe(all.total);
      expect(all.rows.length).toBeGreaterThan(0);
    }
  });

  it('restores its chains from a backup, a child written before its parent', async () => {
    const chained = await db
      .selectFrom('contract_records')
      .select(['id', 'parent_id', 'terminated_by'])
      .orderBy('id')
      .execute();
    expect(chained.some((row) => row.parent_id !== null)).toBe(true);
    const file = join(mkdtempSync(join(tmpdir(), 'vg-contracts-')), 'vertraege.backup');
    await writeBackup(db, file, {
      productVersion: '0.0.0-test',
      database: database.name === 'postgres' ? 'postgres' : 'pglite',
    });
    const restored = await database.openBlank();
    try {
      await restoreBackup(restored, file);
      expect(
        await restored
          .selectFrom('contract_records')
          .select(['id', 'parent_id', 'terminated_by'])
          .orderBy('id')
          .execute(),
      ).toEqual(chained);
    } finally {
      await restored.destroy();
    }
    // A database made from nothing and a restore into it, as the backup tests' restores have.
  }, 60_000);
});
