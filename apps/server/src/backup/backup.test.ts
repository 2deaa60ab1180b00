import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { pgliteTestDatabase, testDatabases } from '../test/databases.js';
import { demoDataList, demoMatch } from '../test/demo-order.js';
import { bearer, createTestApp } from '../test/test-app.js';
import { BackupRefusedError, LineDigest, readBackup } from './backup-file.js';
import { backedUpTables } from './database-tables.js';
import { restoreBackup } from './restore-backup.js';
import { nextLimit, writeBackup } from './write-backup.js';

const folder = mkdtempSync(join(tmpdir(), 'vg-backup-test-'));
let fileCount = 0;
const newFile = () => join(folder, `backup-${++fileCount}.backup`);

/** Every table's rows as row_to_json text, in primary-key order: two databases with the same data agree. */
async function contents(db: Db): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const table of await backedUpTables(db)) {
    const order = sql.join(table.orderBy.map((column) => sql.ref(`t.${column}`)));
    const { rows } = await sql<{ row: string }>`
      select row_to_json(t)::text as row from ${sql.table(table.name)} as t order by ${order}`.execute(db);
    result[table.name] = rows.map((row) => row.row);
  }
  return result;
}

/** The backup's lines, changed by `edit`, written back with a digest that fits them (or the old one). */
function rewrite(file: string, edit: (lines: string[]) => string[], fixDigest: boolean): string {
  const lines = gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
  const end = JSON.parse(lines.pop() ?? '{}');
  const edited = edit(lines);
  if (fixDigest) {
    const digest = new LineDigest();
    for (const line of edited) digest.add(line);
    end.sha256 = digest.hex();
  }
  const target = newFile();
  writeFileSync(target, gzipSync(`${[...edited, JSON.stringify(end)].join('\n')}\n`));
  return target;
}

describe.each(testDatabases())('backup and restore on $name', { timeout: 60_000 }, (database) => {
  let source: Db;
  let backup: string;

  beforeAll(async () => {
    source = await database.open();
    await new MatchStore(source).upsertMany([demoMatch]);
    const t = await createTestApp(source, { demoStaff: true });
    const legal = await t.signIn('legal@demo.local');
    const consultant = await t.signIn('berater@demo.local');
    for (const key of ['docx-de-wm-rv', 'angebot-wm']) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/backend/${key.startsWith('angebot') ? 'generateDocxOffer' : 'generateDocx'}/${key}/${demoMatch.matchId}`,
        headers: bearer(legal),
        payload: { dataList: demoDataList(key) },
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const envelope = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/de-wm-pp-rv/${demoMatch.matchId}`,
      headers: bearer(consultant),
      payload: { dataList: demoDataList('de-wm-pp-rv') },
    });
    expect(envelope.statusCode, envelope.body).toBe(200);
    const report = await t.app.inject({
      method: 'POST',
      url: '/backend/sendSupportEmail',
      headers: bearer(consultant),
      payload: { subject: 'Sicherung', msgBody: 'Ein Bericht, der mitgesichert wird.' },
    });
    expect(report.statusCode, report.body).toBe(200);
    // The app stops before the backup is written: its outboxes would otherwise go on changing rows
    // (a mail marked sent) between the backup and the comparison with the source.
    await t.app.close();
    backup = newFile();
    await writeBackup(source, backup, { productVersion: '0.0.0-test', database: 'pglite' });
  }, 60_000);
  afterAll(async () => {
    await source.destroy();
  });

  it('reads a table a few rows at a time, each batch after the last key, the same rows as at once', async () => {
    const dataLines = (file: string) => {
      const lines = gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
      // Without the header (its time) and the end (its digest covers the header).
      return lines.slice(1, -1);
    };
    const batched = newFile();
    const written = await writeBackup(
      source,
      batched,
      { productVersion: '0.0.0-test', database: 'pglite' },
      { rowsPerQuery: 2 },
    );
    // Several tables take more than one batch, among them one with a key of two columns.
    const multiBatch = (await backedUpTables(source)).filter((table) => (written.rows[table.name] ?? 0) > 2);
    expect(multiBatch.length).toBeGreaterThan(3);
    expect(multiBatch.some((table) => table.orderBy.length > 1)).toBe(true);
    expect(dataLines(batched)).toEqual(dataLines(backup));

    // Cut by size: a row at a time once the last batch's rows averaged more than the bytes allowed.
    const oneByOne = newFile();
    await writeBackup(
      source,
      oneByOne,
      { productVersion: '0.0.0-test', database: 'pglite' },
      { rowsPerQuery: 100, bytesPerQuery: 1 },
    );
    expect(dataLines(oneByOne)).toEqual(dataLines(backup));
  });

  it.each(testDatabases().map((kind) => [kind.name, kind] as const))(
    'restores every row of every table into an empty %s database, and the server works on it',
    async (_name, kind) => {
      const target = await kind.openBlank();
      try {
        const restored = await restoreBackup(target, backup);
        expect(restored.rows.documents).toBe(3);
        expect(restored.rows.support_reports).toBe(1);
        expect(await contents(target)).toEqual(await contents(source));
        // Every stored file still has the SHA-256 recorded with it.
        const { rows } = await sql<{ mismatched: string }>`
        select count(*) as mismatched from document_versions
        where encode(sha256(content), 'hex') <> sha256`.execute(target);
        expect(Number(rows[0]?.mismatched)).toBe(0);

        // New rows continue after the restored IDs, and the restored sessions still hold.
        const restoredApp = await createTestApp(target);
        try {
          const report = await restoredApp.app.inject({
            method: 'POST',
            url: '/backend/sendSupportEmail',
            headers: bearer(await restoredApp.signIn('berater@demo.local')),
            payload: { subject: 'Nach der Wiederherstellung', msgBody: 'Neue Zeile.' },
          });
          expect(report.statusCode, report.body).toBe(200);
          const documents = await restoredApp.app.inject({
            method: 'GET',
            url: `/backend/matches/${demoMatch.matchId}/documents`,
            headers: bearer(await restoredApp.signIn('legal@demo.local')),
          });
          expect(documents.statusCode, documents.body).toBe(200);
        } finally {
          await restoredApp.app.close();
        }
      } finally {
        await target.destroy();
      }
    },
  );

  it('refuses a target that is not empty, and writes nothing into it', async () => {
    const before = await contents(source);
    await expect(restoreBackup(source, backup)).rejects.toThrow(/nicht leer/);
    expect(await contents(source)).toEqual(before);
  });

  it('refuses a truncated file, a file of another product, an altered one and one of a newer schema', async () => {
    const bytes = readFileSync(backup);
    const truncated = newFile();
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const foreign = newFile();
    writeFileSync(foreign, 'name;kunde\nPL-1;Fremd GmbH\n');
    const foreignGzip = newFile();
    writeFileSync(foreignGzip, gzipSync('{"format":"something-else"}\n'));
    const altered = rewrite(
      backup,
      (lines) => lines.map((line) => line.replace('Sicherung', 'Fälschung')),
      false,
    );
    const newer = rewrite(
      backup,
      (lines) => [
        JSON.stringify({ ...JSON.parse(lines[0] ?? '{}'), schema: '9999_future' }),
        ...lines.slice(1),
      ],
      true,
    );
    const cases: [string, RegExp][] = [
      [truncated, /unvollständig/],
      [foreign, /keine Sicherung des Vertragsgenerators/],
      [foreignGzip, /keine Sicherung des Vertragsgenerators/],
      [altered, /Prüfsumme/],
      [newer, /neueren Version/],
    ];
    // One blank target for all: each file is checked before anything is written, so it stays blank.
    const target = await pgliteTestDatabase.openBlank();
    try {
      for (const [file, message] of cases) {
        const refusal = await restoreBackup(target, file).catch((error: unknown) => error);
        expect(refusal, file).toBeInstanceOf(BackupRefusedError);
        expect((refusal as Error).message, file).toMatch(message);
        const { rows } = await sql<{ tables: string }>`
          select count(*) as tables from information_schema.tables
          where table_schema = current_schema()`.execute(target);
        expect(Number(rows[0]?.tables), file).toBe(0);
      }
    } finally {
      await target.destroy();
    }
  });

  it('leaves the previous backup of that name whole when writing fails', async () => {
    const file = newFile();
    await writeBackup(source, file, { productVersion: '0.0.0-test', database: 'pglite' });
    const previous = readFileSync(file);
    // The partial file cannot be created: as if the disk were full from the first byte.
    mkdirSync(`${file}.partial`);
    await expect(
      writeBackup(source, file, { productVersion: '0.0.0-test', database: 'pglite' }),
    ).rejects.toThrow();
    expect(readFileSync(file).equals(previous)).toBe(true);
    expect((await readBackup(file)).rows.documents).toBe(3);
  });

  it('leaves the previous backup whole when the disk fills up in the middle of writing', async () => {
    const file = newFile();
    await writeBackup(source, file, { productVersion: '0.0.0-test', database: 'pglite' });
    const previous = readFileSync(file);
    // /dev/full takes the file's opening and answers every write with ENOSPC, as a full disk does.
    symlinkSync('/dev/full', `${file}.partial`);
    await expect(
      writeBackup(source, file, { productVersion: '0.0.0-test', database: 'pglite' }),
    ).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readFileSync(file).equals(previous)).toBe(true);
    expect(existsSync(`${file}.partial`)).toBe(false);
    expect((await readBackup(file)).rows.documents).toBe(3);
    // The transaction ended with the failure, its next batch answered first: the database still serves.
    const { rows } = await sql<{ documents: string }>`select count(*) as documents from documents`.execute(
      source,
    );
    expect(Number(rows[0]?.documents)).toBe(3);
  });
});

describe('the rows a backup reads per query', () => {
  const rows = (count: number, length: number) =>
    Array.from({ length: count }, () => ({ row: 'x'.repeat(length) }));

  it('takes as many as make about the bytes allowed, judged by the rows just read', () => {
    expect(nextLimit(rows(100, 1_000), { rowsPerQuery: 100, bytesPerQuery: 40_000 })).toBe(40);
    expect(nextLimit(rows(3, 150_000), { rowsPerQuery: 100, bytesPerQuery: 4_000_000 })).toBe(26);
  });

  it('takes at most the rows allowed and at least one, however small or large they are', () => {
    expect(nextLimit(rows(100, 10), { rowsPerQuery: 100, bytesPerQuery: 4_000_000 })).toBe(100);
    expect(nextLimit(rows(1, 9_000_000), { rowsPerQuery: 100, bytesPerQuery: 4_000_000 })).toBe(1);
  });
});
