import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { DatabaseMatchSource } from '../matches/database-match-source.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { runMatchesImport } from './matches-import.js';

const dir = mkdtempSync(join(tmpdir(), 'vg-matches-import-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe.each(testDatabases())('npm run matches:import on $name', (database) => {
  let db: Db;
  let store: MatchStore;
  beforeAll(async () => {
    db = await database.open();
    store = new MatchStore(db);
  });
  beforeEach(async () => {
    await db.deleteFrom('matches').execute();
  });
  afterAll(() => db.destroy());

  async function run(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runMatchesImport(
      args,
      { store, audit: new AuditLog(db), actor: 'cli:tester', readText: (path) => readFile(path, 'utf8') },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    return { code, out, err };
  }

  it('imports a file and prints the summary', async () => {
    const result = await run(
      file('good.csv', 'matchId;kunde\nPL-1;Elbwerk Logistik AG\n2;Isarblick Bank AG\n'),
    );
    expect(result).toEqual({
      code: 0,
      out: ['2 Matches importiert (2 neu, 0 geändert, 0 unverändert), 0 abgelehnt'],
      err: [],
    });
    const [entry] = await new AuditLog(db).list({ limit: 1 });
    expect(entry).toMatchObject({
      actor: 'cli:tester',
      action: 'matches.import',
      subject: expect.stringMatching(/good\.csv$/),
    });
    expect((await new DatabaseMatchSource(db).find('PL-2'))?.kunde).toBe('Isarblick Bank AG');
  });

  it('prints every refused row and fails when nothing was imported', async () => {
    const bad = file('bad.json', '[\n{"matchId":"PL-1"},\n{"matchId":"PL-2","kunde":7}\n]');
    const result = await run(bad);
    expect(result.code).toBe(1);
    expect(result.out).toEqual([
      '0 Matches importiert, 1 abgelehnt',
      'Eintrag 2: PL-2: Das Feld „kunde“ muss Text sein, nicht die Zahl 7.',
      'Nichts importiert. Gültige Zeilen: 1; --skip-invalid importiert sie trotzdem.',
    ]);

    const skipped = await run('--skip-invalid', bad);
    expect(skipped.code).toBe(0);
    expect(skipped.out).toEqual([
      '1 Matches importiert (1 neu, 0 geändert, 0 unverändert), 1 abgelehnt',
      'Eintrag 2: PL-2: Das Feld „kunde“ muss Text sein, nicht die Zahl 7.',
    ]);
  });

  it('explains a missing file and wrong usage', async () => {
    const missing = await run(join(dir, 'fehlt.json'));
    expect(missing.code).toBe(1);
    expect(missing.err.join('\n')).toMatch(/fehlt\.json kann nicht gelesen werden/);
    for (const args of [[], ['a.json', 'b.json'], ['--force', 'a.json']]) {
      const usage = await run(...args);
      expect(usage.code).toBe(1);
      expect(usage.err.join('\n')).toMatch(/Verwendung/);
    }
  });
});
