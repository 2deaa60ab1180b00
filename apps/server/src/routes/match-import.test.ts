import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { DatabaseMatchSource } from '../matches/database-match-source.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const OPS = 'ops@demo.local';

/** "Matches importieren" in /verwaltung: dry run, then the import in one transaction. */
describe.each(testDatabases())('match import through the page on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let ops: string;

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { demoStaff: true });
    ops = await t.signIn(OPS);
    await new MatchStore(db).upsertMany([
      { matchId: 'PL-1', kunde: 'Alt GmbH' },
      { matchId: 'PL-2', kunde: 'Bleibt AG' },
    ]);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  function upload(filename: string, body: string | Buffer, mode: 'check' | 'apply', extra = '') {
    return t.app.inject({
      method: 'POST',
      url: `/backend/admin/match-import?filename=${encodeURIComponent(filename)}&mode=${mode}${extra}`,
      headers: {
        ...bearer(ops),
        'content-type': filename.endsWith('.json') ? 'application/json' : 'text/csv',
      },
      payload: body,
    });
  }
  const csv = [
    'matchId;kunde;position',
    'PL-1;Neu GmbH;Entwickler',
    'PL-2;Bleibt AG;',
    'PL-3;<script>alert(1)</script>;Test',
    'PL-4;Vierte KG;Architektin',
  ].join('\n');

  it('counts new, changed, unchanged and refused rows in a dry run, and writes nothing', async () => {
    const response = await upload('crm-export.csv', csv, 'check');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      new: 1,
      changed: 1,
      unchanged: 1,
      imported: 0,
      refused: [
        { line: 4, matchId: 'PL-3', reason: 'Das Feld „kunde“ enthält HTML oder Skript („<script>“).' },
      ],
    });
    expect((await new DatabaseMatchSource(db).find('PL-1'))?.kunde).toBe('Alt GmbH');
  });

  it('imports nothing of a file with a refused row, unless the valid rows are asked for', async () => {
    expect((await upload('crm-export.csv', csv, 'apply')).json()).toMatchObject({ imported: 0 });
    expect(await new DatabaseMatchSource(db).find('PL-4')).toBeUndefined();

    const applied = await upload('crm-export.csv', csv, 'apply', '&skipInvalid=true');
    expect(applied.json()).toMatchObject({ imported: 3, new: 1, changed: 1, unchanged: 1 });
    const source = new DatabaseMatchSource(db);
    expect((await source.find('PL-1'))?.kunde).toBe('Neu GmbH');
    expect((await source.find('PL-4'))?.position).toBe('Architektin');
    expect(await source.find('PL-3')).toBeUndefined();
    const [entry] = await new AuditLog(db).list({ limit: 1 });
    expect(entry).toMatchObject({
      actor: OPS,
      action: 'matches.import',
      subject: 'crm-export.csv',
      newValue: '3 importiert: 1 neu, 1 geändert, 1 unverändert; 1 abgelehnt',
    });
  });

  it('reads JSON files in the format of the command-line tool', async () => {
    const json = JSON.stringify([{ matchId: 'PL-5', kunde: 'Fünfte AG', ek: 90 }]);
    const response = await upload('export.json', json, 'apply');
    expect(response.json()).toMatchObject({ imported: 1, new: 1 });
  });

  it('imports 10,000 rows in one go', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => `PL-${20_000 + i};Kunde ${i} GmbH;Rolle ${i}`);
    const file = ['matchId;kunde;position', ...rows].join('\n');
    const checked = await upload('gross.csv', file, 'check');
    expect(checked.json()).toMatchObject({ new: 10_000, refused: [] });
    const applied = await upload('gross.csv', file, 'apply');
    expect(applied.json()).toMatchObject({ imported: 10_000 });
    expect((await new DatabaseMatchSource(db).find('PL-29999'))?.kunde).toBe('Kunde 9999 GmbH');
  }, 60_000);

  it('refuses what is not a CSV or JSON file with the failing field, before reading any row', async () => {
    const cases: [string, string | Buffer, RegExp][] = [
      ['tabelle.xlsx', 'matchId\nPL-1', /CSV- oder JSON-Datei/],
      ['binaer.csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), /Binärdaten/],
      ['latin1.csv', Buffer.from([0x6d, 0x61, 0x74, 0x63, 0x68, 0x49, 0x64, 0x0a, 0xfc]), /UTF-8/],
      ['leer.csv', '', /leer/],
    ];
    for (const [name, body, message] of cases) {
      const response = await upload(name, body, 'check');
      expect(response.statusCode, name).toBe(400);
      expect(response.json().fields.file[0], name).toMatch(message);
    }
    const noMode = await upload('a.csv', 'matchId\nPL-1', 'check', '&mode=nichts');
    expect(noMode.statusCode).toBe(400);
  });

  it('refuses a 50 MB upload with a clear message', async () => {
    const response = await upload('riesig.csv', Buffer.alloc(50 * 1024 * 1024, 0x41), 'check');
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      error: 'payload_too_large',
      fields: { file: ['Die Datei ist zu groß: höchstens 20 MB.'] },
    });
  });

  it('reads no file of someone who is not an administrator', async () => {
    const legal = await t.signIn('legal@demo.local');
    const response = await t.app.inject({
      method: 'POST',
      url: '/backend/admin/match-import?filename=a.csv&mode=apply',
      headers: { ...bearer(legal), 'content-type': 'text/csv' },
      payload: 'matchId\nPL-99',
    });
    expect(response.statusCode).toBe(403);
    expect(await new DatabaseMatchSource(db).find('PL-99')).toBeUndefined();
  });
});
