import { join } from 'node:path';
import type { Batch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { AuditLog } from '../admin/audit-log.js';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { DocumentGenerator } from '../documents/document-generator.js';
import { DocumentsRepository } from '../documents/documents-repository.js';
import { DatabaseMatchSource } from '../matches/database-match-source.js';
import { seedDemoMatches } from '../matches/demo.js';
import { MatchStore } from '../matches/match-store.js';
import { loadCompanyData } from '../templates/companies.js';
import { createRendererPool } from '../templates/renderer.js';
import { TemplateVersions } from '../templates/template-versions.js';
import { testDatabases } from '../test/databases.js';
import { eventually } from '../test/eventually.js';
import { SwitchableSource } from '../test/switchable-match-source.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';
import { BatchEnd } from './batch-end.js';
import { BatchRunner } from './batch-runner.js';

/** A replica making Word documents asks neither for envelopes nor for Freigabe. */
const notForWordDocuments = new Proxy({} as never, {
  get: () => () => {
    throw new Error('a Word document batch made an envelope or asked for Freigabe');
  },
});

const { configDir } = loadConfig({}, '0');
const EXTENSION = 'verlaengerung-de-wm-k';
const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

describe.each(testDatabases())('Serien on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let crm: SwitchableSource;
  let legal: string;
  let leader: string;
  let consultant: string;
  let nobody: string;

  beforeAll(async () => {
    db = await database.open();
    await seedDemoMatches(join(configDir, 'demo-matches.json'), new MatchStore(db));
    crm = new SwitchableSource(new DatabaseMatchSource(db));
    t = await createTestApp(db, { demoStaff: true, matches: crm });
    [legal, leader, consultant, nobody] = await Promise.all([
      t.signIn('legal@demo.local'),
      t.signIn('leitung@demo.local'),
      t.signIn('berater@demo.local'),
      t.signIn('neu@demo.local'),
    ]);
    await db
      .insertInto('webhook_endpoints')
      .values({
        url: 'https://empfaenger.example/hook',
        events: ['batch.completed'],
        secret: `whsec_${Buffer.alloc(24, 5).toString('base64')}`,
        created_by: 'ops@demo.local',
      })
      .execute();
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const call = (method: 'GET' | 'POST', url: string, token = legal, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload }) });
  const check = (payload: Record<string, unknown>, token = legal) =>
    call('POST', '/backend/batches', token, payload);
  async function checked(payload: Record<string, unknown>): Promise<Batch> {
    const response = await check(payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }
  const read = async (id: string, token = legal): Promise<Batch> =>
    (await call('GET', `/backend/batches/${id}`, token)).json();
  const finished = (id: string) =>
    eventually(`batch ${id} finished`, async () => {
      const batch = await read(id);
      return batch.status === 'finished' || batch.status === 'cancelled' ? batch : undefined;
    });
  const count = async (table: 'documents' | 'batches') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('checks every deal before anything is made: ready, needs Freigabe with why, and cannot with why', async () => {
    const documents = await count('documents');
    const batch = await checked({
      docKey: EXTENSION,
      values: { neuesEnde: '31.12.2027' },
      matchIds: 'PL-10001, PL-10006\nPL-99999;xyz!\n\n10002 PL-10001',
    });
    expect(batch).toMatchObject({ status: 'checked', title: 'Verlängerung – Kunde, WM', deals: 5 });
    expect(batch.items.map((item) => [item.position, item.matchId, item.verdict, item.status])).toEqual([
      [1, 'PL-10001', 'ready', 'waiting'],
      [2, 'PL-10006', 'approval', 'waiting'],
      [3, 'PL-99999', 'cannot', 'skipped'],
      [4, 'PL-xyz!', 'cannot', 'skipped'],
      [5, 'PL-10002', 'ready', 'waiting'],
    ]);
    expect(batch.items[0]).toMatchObject({
      counterparty: 'Elbwerk Logistik AG',
      values: { neuesEnde: '2027-12-31', vertragspartner_type: 'k' },
      reason: null,
    });
    // VK 98 below EK 110: the margin is negative.
    expect(batch.items[1]?.reason).toMatch(/Marge/);
    expect(batch.items[2]?.reason).toBe('Diesen Match gibt es im CRM nicht.');
    expect(batch.items[3]?.reason).toMatch(/^„PL-xyz!“: Die Match-ID darf nach „PL-“ nur Buchstaben/);
    expect(batch.counts).toMatchObject({ ready: 2, approval: 1, cannot: 2, waiting: 3, skipped: 2, done: 0 });
    expect(await count('documents')).toBe(documents);
  });

  it('takes per-deal values from a CSV with semicolons and a BOM, and names a deal’s bad value on it', async () => {
    const csv =
      '\uFEFFMatch-ID;Neues Ende;Stundensatz remote\r\nPL-10001;31.03.2028;125,50\r\nPL-10002;31.02.2028;\r\nPL-10012;2027-01-01;\r\n;;\r\n';
    const batch = await checked({
      docKey: EXTENSION,
      values: { neuesEnde: '2027-12-31' },
      file: { name: 'verlaengerungen.csv', content: base64(csv) },
    });
    expect(batch.items.map((item) => [item.matchId, item.verdict, item.reason])).toEqual([
      ['PL-10001', 'ready', null],
      ['PL-10002', 'cannot', 'Neues Ende: Kein gültiges Datum (TT.MM.JJJJ).'],
      [
        'PL-10012',
        'cannot',
        'Neues Ende: Das neue Ende (01.01.2027) liegt vor dem Beginn des Vertrags (03.05.2027).',
      ],
    ]);
    expect(batch.items[0]?.values).toMatchObject({ neuesEnde: '2028-03-31', neuerSatzRemote: 125.5 });
  });

  it('reads an Excel file, its dates and numbers as cells', async () => {
    const xlsx = await writeXlsxFile([
      [{ value: 'Match-ID' }, { value: 'Neues Ende' }, { value: 'Stunden pro Woche' }],
      [
        { value: 'PL-10014' },
        { value: new Date(Date.UTC(2028, 0, 31)), format: 'dd.mm.yyyy' },
        { value: 32 },
      ],
    ]).toBuffer();
    const batch = await checked({
      docKey: EXTENSION,
      values: {},
      file: { name: 'serie.xlsx', content: base64(xlsx) },
    });
    expect(batch.items).toMatchObject([
      { matchId: 'PL-10014', verdict: 'ready', values: { neuesEnde: '2028-01-31', neueStundenProWoche: 32 } },
    ]);
  });

  it('refuses an input it cannot take as a whole, naming the line, and stores nothing', async () => {
    const batches = await count('batches');
    const refused = async (content: string | Buffer, name = 'serie.csv') => {
      const response = await check({
        docKey: EXTENSION,
        values: { neuesEnde: '2027-12-31' },
        file: { name, content: base64(content) },
      });
      expect(response.statusCode, response.body).toBe(400);
      return response.json().fields as Record<string, string[]>;
    };
    expect(await refused('Match-ID,Farbe\nPL-10001,rot\n')).toEqual({
      'Zeile 1': [
        'Unbekannte Spalte „Farbe“. Erlaubt sind: Match-ID, Neues Ende, Stundensatz remote, Stundensatz vor Ort, Stunden pro Woche.',
      ],
    });
    expect(await refused('Neues Ende\n2027-12-31\n')).toEqual({
      'Zeile 1': ['Die Spalte „Match-ID“ fehlt in der ersten Zeile.'],
    });
    expect(await refused('Match-ID\nPL-10001\nPL-10002\nPL-10001\n')).toEqual({
      'Zeile 4': ['PL-10001 steht schon in Zeile 2.'],
    });
    expect(await refused('Match-ID,Neues Ende\nPL-10001,=HEUTE()+90\n,2027-12-31\n')).toEqual({
      'Zeile 2': ['In der Spalte „Neues Ende“ steht eine Formel (=HEUTE()+90); bitte den Wert eintragen.'],
      'Zeile 3': ['Die Match-ID fehlt.'],
    });
    const tooMany = ['Match-ID', ...Array.from({ length: 1001 }, (_, i) => `PL-${20000 + i}`)].join('\n');
    expect(await refused(tooMany)).toEqual({
      file: ['Höchstens 1.000 Deals pro Serie; die Datei hat 1.001.'],
    });
    expect(await refused('')).toEqual({ file: ['Die Datei ist leer.'] });
    expect(await refused('Match-ID\n"PL-10001\n')).toEqual({
      'Zeile 2': ['Das Anführungszeichen in Zeile 2 wird nie geschlossen.'],
    });
    expect(await refused(Buffer.from([0x00, 0xff, 0x10, 0x80]))).toEqual({
      file: ['Die Datei ist weder eine CSV- noch eine Excel-Datei (.xlsx).'],
    });
    expect(await refused(Buffer.from('PK\u0003\u0004 kaputt'), 'serie.xlsx')).toEqual({
      file: ['Die Excel-Datei lässt sich nicht lesen. Bitte als .xlsx oder als CSV speichern.'],
    });
    const pasted = await check({
      docKey: EXTENSION,
      values: {},
      matchIds: Array.from({ length: 1001 }, (_, i) => `PL-${20000 + i}`).join('\n'),
    });
    expect(pasted.statusCode).toBe(400);
    expect(pasted.json().fields).toEqual({
      matchIds: ['Höchstens 1.000 Deals pro Serie; eingegeben sind 1.001.'],
    });
    const badCommon = await check({ docKey: EXTENSION, values: { neuesEnde: 'bald' }, matchIds: 'PL-10001' });
    expect(badCommon.statusCode).toBe(400);
    expect(badCommon.json().fields).toEqual({ neuesEnde: ['Kein gültiges Datum (TT.MM.JJJJ).'] });
    expect(await count('batches')).toBe(batches);
  });

  it('makes one document per deal once started, and finishes once: mail, audit entry, webhook', async () => {
    const batch = await checked({
      docKey: EXTENSION,
      values: { neuesEnde: '2027-12-31' },
      matchIds: 'PL-10001 PL-10002 PL-99999',
    });
    const started = await call('POST', `/backend/batches/${batch.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    const done = await finished(batch.id);
    expect(done.status).toBe('finished');
    expect(done.items.map((item) => [item.matchId, item.status])).toEqual([
      ['PL-10001', 'done'],
      ['PL-10002', 'done'],
      ['PL-99999', 'skipped'],
    ]);
    expect(done.items[0]?.fileName).toBe('PL-10001 Verlängerung Kunde Elbwerk Logistik AG.docx');
    const documents = await db
      .selectFrom('documents')
      .select(['id', 'match_id', 'created_by', 'status'])
      .where(
        'batch_item_id',
        'in',
        done.items.map((item) => item.id),
      )
      .orderBy('match_id')
      .execute();
    expect(documents).toEqual([
      {
        id: done.items[0]?.documentId,
        match_id: 'PL-10001',
        created_by: 'legal@demo.local',
        status: 'ready',
      },
      {
        id: done.items[1]?.documentId,
        match_id: 'PL-10002',
        created_by: 'legal@demo.local',
        status: 'ready',
      },
    ]);
    const mails = await db
      .selectFrom('outgoing_mail')
      .select(['recipient', 'subject'])
      .where('reference', '=', `batch:${batch.id}`)
      .execute();
    expect(mails).toEqual([
      {
        recipient: 'legal@demo.local',
        subject: 'Serie fertig: Verlängerung – Kunde, WM – 2 erstellt, 0 fehlgeschlagen, 1 übersprungen',
      },
    ]);
    const audit = await db
      .selectFrom('audit_entries')
      .select(['action', 'new_value'])
      .where('subject', '=', 'Serie Verlängerung – Kunde, WM')
      .where('action', 'in', ['batch.start', 'batch.finished'])
      .orderBy('id')
      .execute();
    expect(audit.slice(-2)).toEqual([
      { action: 'batch.start', new_value: '2 Deals' },
      { action: 'batch.finished', new_value: '2 erstellt, 0 fehlgeschlagen, 1 übersprungen' },
    ]);
    const events = await db
      .selectFrom('webhook_events')
      .select('payload')
      .where('type', '=', 'batch.completed')
      .execute();
    expect(
      events.filter((event) => (event.payload as { data: { batchId: string } }).data.batchId === batch.id),
    ).toHaveLength(1);
    expect((await call('POST', `/backend/batches/${batch.id}/start`)).statusCode).toBe(409);
  });

  it('fails the deals the CRM cannot answer for, and those changed since the check, with why; retry makes them', async () => {
    const batch = await checked({
      docKey: EXTENSION,
      values: { neuesEnde: '2027-12-31' },
      matchIds: 'PL-10014 PL-10016',
    });
    // PL-10016 now starts after the new end.
    const stored = await db
      .selectFrom('matches')
      .select('record')
      .where('match_id', '=', 'PL-10016')
      .executeTakeFirstOrThrow();
    await new MatchStore(db).upsertMany([
      { ...stored.record, matchId: 'PL-10016', startdatum: '2028-02-01' },
    ]);
    crm.down = true;
    await call('POST', `/backend/batches/${batch.id}/start`);
    const failed = await finished(batch.id);
    expect(failed.items.map((item) => [item.matchId, item.status, item.error])).toEqual([
      ['PL-10014', 'failed', expect.stringMatching(/^Das CRM war nicht erreichbar/)],
      ['PL-10016', 'failed', expect.stringMatching(/^Das CRM war nicht erreichbar/)],
    ]);
    crm.down = false;
    expect((await call('POST', `/backend/batches/${batch.id}/retry`)).statusCode).toBe(200);
    const retried = await finished(batch.id);
    expect(retried.items.map((item) => [item.matchId, item.status, item.error])).toEqual([
      ['PL-10014', 'done', null],
      [
        'PL-10016',
        'failed',
        'Seit der Prüfung im CRM geändert: Neues Ende: Das neue Ende (31.12.2027) liegt vor dem Beginn des Vertrags (01.02.2028).',
      ],
    ]);
    expect(retried.counts).toMatchObject({ done: 1, failed: 1 });
    await new MatchStore(db).upsertMany([{ ...stored.record, matchId: 'PL-10016' }]);
  });

  it('gives every deal exactly one document with two replicas, and finishes a deal whose replica died mid-render', async () => {
    const ids = Array.from({ length: 28 }, (_, i) => `PL-${10001 + i}`).join(' ');
    const batch = await checked({ docKey: 'zusatz-wm-k-misc', values: {}, matchIds: ids });
    const [first] = batch.items.filter((item) => item.verdict !== 'cannot');
    if (!first) throw new Error('no deal to make');
    // A replica was killed while it rendered the first deal: its lease has run out, its document is half made.
    await db
      .updateTable('batch_items')
      .set({
        status: 'running',
        lease: '00000000-0000-4000-8000-000000000000',
        lease_until: new Date(Date.now() - 1000),
      })
      .where('id', '=', first.id)
      .execute();
    const { id: orphan } = await db
      .insertInto('documents')
      .values({
        match_id: first.matchId,
        doc_key: 'zusatz-wm-k-misc',
        form: 'agreement',
        created_by: 'legal@demo.local',
        status: 'rendering',
        file_name: 'halb.docx',
        data: '{}',
        data_sha256: 'a'.repeat(64),
        batch_item_id: first.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const renderer = createRendererPool({ threads: 1 });
    const documents = new DocumentsRepository(db);
    const replica = new BatchRunner({
      db,
      matches: new DatabaseMatchSource(db),
      companyData: await loadCompanyData(configDir),
      generator: new DocumentGenerator(documents, renderer, new TemplateVersions(db, new AuditLog(db))),
      // Word documents only: whether a deal needs Freigabe is not what this replica is about.
      approvalRules: async () => ({
        ...(await import('@vertragsgenerator/domain')).DEFAULT_APPROVAL_RULES,
        margin: { enabled: false, thresholds: { wm: 0, we: 0, wp: 0 } },
      }),
      end: new BatchEnd({
        audit: new AuditLog(db),
        enqueueMail: async () => {},
        approvals: { mailBatch: async () => {} },
        publicUrl: 'https://vertrag.example',
      }),
      envelopes: notForWordDocuments,
      approvals: notForWordDocuments,
      log: { warn: () => {}, error: () => {} },
    });
    try {
      await call('POST', `/backend/batches/${batch.id}/start`);
      await replica.runDue();
      const done = await finished(batch.id);
      const made = done.items.filter((item) => item.verdict !== 'cannot');
      expect(made.every((item) => item.status === 'done' || item.status === 'approval')).toBe(true);
      const perDeal = await db
        .selectFrom('documents')
        .select(['batch_item_id', (eb) => eb.fn.countAll<string>().as('n')])
        .where(
          'batch_item_id',
          'in',
          made.map((item) => item.id),
        )
        .groupBy('batch_item_id')
        .execute();
      expect(perDeal).toHaveLength(made.length);
      expect(perDeal.every((row) => Number(row.n) === 1)).toBe(true);
      // The half-made document is the one finished, not a second one.
      expect(done.items.find((item) => item.id === first.id)?.documentId).toBe(orphan);
      expect(
        await db
          .selectFrom('document_versions')
          .select('version')
          .where('document_id', '=', orphan)
          .execute(),
      ).toEqual([{ version: 1 }]);
    } finally {
      await replica.stop();
      await renderer.close();
    }
  });

  it('cancels what has not started; shows a batch to its starter only; refuses who may not make the document', async () => {
    const batch = await checked({
      docKey: EXTENSION,
      values: { neuesEnde: '2027-12-31' },
      matchIds: 'PL-10001',
    });
    expect((await call('GET', `/backend/batches/${batch.id}`, leader)).statusCode).toBe(404);
    expect((await call('GET', '/backend/batches', leader)).json()).toEqual([]);
    expect((await call('POST', `/backend/batches/${batch.id}/start`, leader)).statusCode).toBe(404);
    const cancelled = await call('POST', `/backend/batches/${batch.id}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', items: [{ status: 'cancelled' }] });
    expect((await call('POST', `/backend/batches/${batch.id}/start`)).statusCode).toBe(409);
    expect((await call('GET', '/backend/batches')).json().map((b: { id: string }) => b.id)).toContain(
      batch.id,
    );

    // Extensions are legal's; a leader may batch offers, a consultant none of the Word documents.
    expect((await check({ docKey: EXTENSION, values: {}, matchIds: 'PL-10001' }, leader)).statusCode).toBe(
      403,
    );
    const offers = await check(
      {
        docKey: 'angebot-wm',
        values: { projectHours: 160, projectDays: 20, selectedPerson: 'henrik-albers' },
        matchIds: 'PL-10001',
      },
      leader,
    );
    expect(offers.statusCode, offers.body).toBe(201);
    expect(
      (await check({ docKey: 'angebot-wm', values: {}, matchIds: 'PL-10001' }, consultant)).statusCode,
    ).toBe(403);
    expect((await check({ docKey: EXTENSION, values: {}, matchIds: 'PL-10001' }, nobody)).statusCode).toBe(
      403,
    );
    // An e-signature batch names who countersigns its envelopes.
    const envelopes = await check({ docKey: 'de-wm-pp-rv', values: {}, matchIds: 'PL-10001' });
    expect(envelopes.statusCode).toBe(400);
    expect(envelopes.json().fields['send.countersignatory']).toEqual([
      'Bitte wähle, wer für die Firma gegenzeichnet.',
    ]);
    expect((await call('GET', '/backend/batches/kein-uuid')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/backend/batches' })).statusCode).toBe(401);
  });
});
