import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { demoMatch } from '../test/demo-order.js';
import { type BackupEntry, readBackup } from './backup-file.js';
import { COPY_PREFIX, writeServedEmbeddedBackup } from './served-embedded-backup.js';

/** The match IDs a backup holds. */
async function backedUpMatches(file: string): Promise<string[]> {
  const ids: string[] = [];
  await readBackup(file, async (entry: BackupEntry) => {
    if (entry.kind === 'row' && entry.table === 'matches') ids.push(String(entry.row.match_id));
  });
  return ids.sort();
}

describe('a backup beside the server on the embedded database', { timeout: 120_000 }, () => {
  const folder = mkdtempSync(join(tmpdir(), 'vg-served-backup-'));
  const dataDir = join(folder, 'pglite');
  let db: Db;
  let matches: MatchStore;
  const copies = () => readdirSync(folder).filter((name) => name.includes(COPY_PREFIX));

  beforeAll(async () => {
    // As the server opens it: files on disk, PGlite in its thread.
    db = await openDatabase({ kind: 'pglite', dataDir }, { createMigrated: true });
    matches = new MatchStore(db);
    await matches.upsertMany([demoMatch, { ...demoMatch, matchId: 'PL-20001' }]);
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('frees the database once its files are copied, and holds what was there at that moment', async () => {
    const file = join(folder, 'served.backup');
    let backupWrittenWhenAnswered: boolean | undefined;
    let later: Promise<unknown> | undefined;
    const written = await writeServedEmbeddedBackup(db, dataDir, file, '0.0.0-test', {
      onCopied: () => {
        later = matches.upsertMany([{ ...demoMatch, matchId: 'PL-20002' }]).then(() => {
          backupWrittenWhenAnswered = existsSync(file);
        });
      },
    });
    await later;

    // The write after the copy went through while the backup was still being written from the copy
    // (its file appears under its name only once complete).
    expect(backupWrittenWhenAnswered).toBe(false);
    expect(await backedUpMatches(file)).toEqual([demoMatch.matchId, 'PL-20001'].sort());
    expect(written).toMatchObject({ file, rows: { matches: 2 }, header: { database: 'pglite' } });
    expect((await readBackup(file)).rows.matches).toBe(2);
    // The server's database has all three, and no copy is left behind.
    const live = await db.selectFrom('matches').select('match_id').execute();
    expect(live).toHaveLength(3);
    expect(copies()).toEqual([]);
  });

  it('reports why the backup could not be written, keeps the file code, and deletes the copy', async () => {
    const inMissingFolder = join(folder, 'gibt-es-nicht', 'served.backup');
    await expect(writeServedEmbeddedBackup(db, dataDir, inMissingFolder, '0.0.0-test')).rejects.toMatchObject(
      {
        code: 'ENOENT',
        message: expect.stringContaining('gibt-es-nicht'),
      },
    );
    expect(copies()).toEqual([]);
  });

  it('leaves the lock of the server on its data directory out of the copy', async () => {
    const file = join(folder, 'second.backup');
    const written = await writeServedEmbeddedBackup(db, dataDir, file, '0.0.0-test', {
      onCopied: () => {
        const [copy] = copies();
        expect(copy).toBeDefined();
        expect(readdirSync(join(folder, copy ?? ''))).not.toContain('vertragsgenerator.pid');
        expect(readdirSync(dataDir)).toContain('vertragsgenerator.pid');
      },
    });
    expect(written.rows.matches).toBe(3);
  });
});
