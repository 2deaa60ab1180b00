import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { readBackup } from './backup-file.js';
import { backupIfDue } from './scheduled-backups.js';
import { writeBackup } from './write-backup.js';

const HOUR = 3_600_000;

describe('scheduled backups (BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP)', () => {
  let db: Db;
  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
  });
  afterAll(async () => {
    await db.destroy();
  });
  const write = (file: string) => writeBackup(db, file, { productVersion: '0.0.0-test', database: 'pglite' });

  it('writes one when the newest is older than the interval, and keeps only the newest ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vg-scheduled-'));
    writeFileSync(join(dir, 'notizen.txt'), 'bleibt');
    const schedule = { dir, everyHours: 24, keep: 3 };
    const start = Date.UTC(2026, 10, 1, 2, 0, 0);

    const first = await backupIfDue(write, schedule, new Date(start));
    expect(first && basename(first)).toBe('vertragsgenerator-20261101T020000Z.backup');
    expect(await backupIfDue(write, schedule, new Date(start + 23 * HOUR))).toBeUndefined();
    const written = [first];
    for (let day = 1; day <= 5; day++) {
      written.push(await backupIfDue(write, schedule, new Date(start + day * 24 * HOUR + 60_000)));
    }
    expect(written.every(Boolean)).toBe(true);

    const left = readdirSync(dir).sort();
    expect(left).toEqual([
      'notizen.txt',
      'vertragsgenerator-20261104T020100Z.backup',
      'vertragsgenerator-20261105T020100Z.backup',
      'vertragsgenerator-20261106T020100Z.backup',
    ]);
    const newest = await readBackup(join(dir, left[3] ?? ''));
    expect(newest.header.database).toBe('pglite');
    expect(newest.rows).toHaveProperty('documents', 0);
  });
});
