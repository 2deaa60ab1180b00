import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteTestDatabase } from '../test/databases.js';
import { migrate, pgliteDatabase } from './database.js';
import { openPGlite } from './pglite.js';
import { blankDumpFor, writeBlankDump } from './pglite-blank.js';

/** What initdb decides for a cluster: its databases with encoding and locale, and its catalogue. */
const CLUSTER = `select datname, pg_encoding_to_char(encoding) as encoding, datcollate, datctype,
  (select count(*)::int from pg_class) as relations, current_setting('server_version') as version
  from pg_database order by datname`;

describe("new embedded databases from the build's blank dump", () => {
  const folder = mkdtempSync(join(tmpdir(), 'vg-pglite-blank-'));
  const dump = join(folder, 'pglite-blank-0.0.0.tar.gz');

  // Beside the dump: one of another PGlite version, which writing replaces, and a file of the build.
  const otherVersion = join(folder, 'pglite-blank-0.0.1.tar.gz');
  const buildFile = join(folder, 'serve.js');
  beforeAll(async () => {
    writeFileSync(otherVersion, 'old');
    writeFileSync(buildFile, 'kept');
    await writeBlankDump(dump);
  }, 60_000);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('creates a data folder as initdb makes it, which migrates, keeps its data and opens again', async () => {
    const dataDir = join(folder, 'data');
    const loaded = await blankDumpFor(dataDir, dump);
    expect(loaded).toBeDefined();
    const created = await openPGlite(dataDir, { loadDataDir: loaded });
    const reference = await pgliteTestDatabase.openBlank();
    try {
      const { rows } = await created.query(CLUSTER);
      expect(rows).toEqual((await sql.raw(CLUSTER).execute(reference)).rows);
      expect(rows).toContainEqual(expect.objectContaining({ datname: 'postgres', encoding: 'UTF8' }));
      await migrate(pgliteDatabase(created));
      await created.query("insert into users (email, name) values ('a@demo.local', 'A')");
    } finally {
      await created.close();
      await reference.destroy();
    }

    // An existing folder is opened, not loaded over.
    expect(await blankDumpFor(dataDir, dump)).toBeUndefined();
    const reopened = await openPGlite(dataDir);
    try {
      expect((await reopened.query('select email from users')).rows).toEqual([{ email: 'a@demo.local' }]);
    } finally {
      await reopened.close();
    }
  }, 60_000);

  it('leaves initdb to PGlite where the build wrote no dump (another version, or no build)', async () => {
    expect(
      await blankDumpFor(join(folder, 'other'), join(folder, 'pglite-blank-9.9.9.tar.gz')),
    ).toBeUndefined();
  });

  it('replaces the dumps of other PGlite versions beside it, and nothing else', () => {
    expect(existsSync(otherVersion)).toBe(false);
    expect(existsSync(buildFile)).toBe(true);
    expect(existsSync(dump)).toBe(true);
  });
});
