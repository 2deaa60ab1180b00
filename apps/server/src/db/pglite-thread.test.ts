import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { isDatabaseUnavailable } from '../db/database.js';
import { migratedPGliteDump, pgliteTestDatabase, pgliteThreadTestDatabase } from '../test/databases.js';
import { type Db, openDatabase } from './database.js';
import type { PGliteQueries } from './pglite.js';
import { startPGliteThread, type ThreadReplaced } from './pglite-thread.js';

describe('PGlite in a worker thread', () => {
  let inThread: Db;
  let inProcess: Db;

  beforeAll(async () => {
    [inThread, inProcess] = await Promise.all([pgliteThreadTestDatabase.open(), pgliteTestDatabase.open()]);
  });
  afterAll(async () => {
    await Promise.all([inThread.destroy(), inProcess.destroy()]);
  });

  it('converts parameters and results as PGlite itself does', async () => {
    // PGlite's own query(), with its own conversions, is the reference; every type the repositories
    // send and read: text, numbers, int8, booleans, timestamps, json, arrays, bytea, null.
    const reference = await PGlite.create({ loadDataDir: await migratedPGliteDump() });
    const text = `select $1::text as text, $2::numeric as amount, $3::int8 as big, $4::int as small,
      $5::boolean as flag, $6::text as nothing, $7::timestamptz as at, $8::date as day, $9::jsonb as data,
      $10::text[] as list, $11::bytea as content, length($11::bytea) as size`;
    const parameters = [
      "Müller & Söhne <GmbH> 'x'",
      1234.5,
      9007199254740993n,
      42,
      true,
      null,
      new Date('2026-11-21T09:15:00.123Z'),
      '2026-12-31',
      JSON.stringify({ rate: 95.5, names: ['A', 'B'] }),
      ['x', 'y, z', '"q"'],
      Buffer.from([0, 1, 92, 127, 128, 255]),
    ];
    try {
      const expected = await reference.query(text, parameters);
      const compiled = CompiledQuery.raw(text, parameters);
      const [thread, process] = await Promise.all([
        inThread.getExecutor().executeQuery(compiled),
        inProcess.getExecutor().executeQuery(compiled),
      ]);
      expect(thread.rows).toEqual(expected.rows);
      expect(process.rows).toEqual(expected.rows);
      expect(thread.rows[0]).toMatchObject({ text: parameters[0], flag: true, nothing: null, size: 6 });
    } finally {
      await reference.close();
    }
  });

  it('keeps the SQLSTATE and the fields of an error', async () => {
    await sql`create table if not exists unique_names (name text primary key)`.execute(inThread);
    await sql`insert into unique_names values ('Anna')`.execute(inThread);
    const error = await sql`insert into unique_names values ('Anna')`
      .execute(inThread)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'unique_names_pkey', table: 'unique_names' });
    expect((error as Error).message).toMatch(/duplicate key/);

    const nul = await sql`select ${'a\u0000b'}::text`.execute(inThread).catch((e: unknown) => e);
    expect(nul).toMatchObject({ code: '22021' });
  });

  it('reports affected rows', async () => {
    await sql`create table counted (n int)`.execute(inThread);
    await inThread
      .insertInto('counted' as never)
      .values([{ n: 1 }, { n: 2 }, { n: 3 }] as never)
      .execute();
    const [result] = await inThread
      .updateTable('counted' as never)
      .set({ n: 0 } as never)
      .where('n' as never, '>', 1 as never)
      .execute();
    expect(result?.numUpdatedRows).toBe(2n);
  });

  it('keeps a transaction together while other queries wait, and rolls it back whole', async () => {
    await sql`create table ledger (entry int)`.execute(inThread);
    const failing = inThread.transaction().execute(async (trx) => {
      await sql`insert into ledger values (1)`.execute(trx);
      // Give other queries the chance to slip in between the statements of this transaction.
      await new Promise((resolve) => setTimeout(resolve, 20));
      await sql`insert into ledger values (2)`.execute(trx);
      throw new Error('abandoned');
    });
    const outside = sql<{ count: string }>`select count(*)::int as count from ledger`.execute(inThread);
    await expect(failing).rejects.toThrow('abandoned');
    // Had the read run inside the open transaction, it would have seen its rows.
    expect((await outside).rows[0]).toEqual({ count: 0 });
    const after = await sql<{ count: number }>`select count(*)::int as count from ledger`.execute(inThread);
    expect(after.rows[0]).toEqual({ count: 0 });
  });
});

// Creating a database's files (in a process of its own; initdb where the build dumped no blank files)
// takes seconds of CPU, which a machine busy with the other test files stretches to near the usual
// 20 s: 15.8 s in one CI run.
describe('PGlite thread on disk and when it stops', { timeout: 60_000 }, () => {
  const dataDirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'vg-pglite-thread-'));
    dataDirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps what was written across a close and a new start', async () => {
    const dataDir = freshDir();
    const first = await openDatabase({ kind: 'pglite', dataDir });
    await sql`create table kept (value text)`.execute(first);
    await sql`insert into kept values ('PL-123456')`.execute(first);
    await first.destroy();

    const second = await openDatabase({ kind: 'pglite', dataDir });
    const { rows } = await sql`select value from kept`.execute(second);
    await second.destroy();
    expect(rows).toEqual([{ value: 'PL-123456' }]);
  });

  it('refuses statements after it has been closed as an unavailable database, without hanging', async () => {
    const database = await startPGliteThread(undefined);
    await database.close();
    const error = await database.query('select 1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('rejects the start when the data folder holds something that is not a database', async () => {
    const dataDir = freshDir();
    writeFileSync(join(dataDir, 'PG_VERSION'), '9\n');
    await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(/initialize/);
  });
});

describe('PGlite thread replaced after a busy spell', () => {
  const dataDirs: string[] = [];
  afterAll(() => {
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });
  /**
   * A database's files, made once and copied for each test: making them (in a process of its own)
   * takes seconds of CPU, three times the rest of such a test on a busy machine.
   */
  let blankFiles: string;
  beforeAll(async () => {
    blankFiles = mkdtempSync(join(tmpdir(), 'vg-pglite-blank-'));
    dataDirs.push(blankFiles);
    await (await startPGliteThread(blankFiles)).close();
  });
  const replacement = { afterStatements: 5, quietMs: 100, quietStatements: 0 };
  /** Several looks at the database: time enough for a replacement that is due to have begun. */
  const looks = () => new Promise((resolve) => setTimeout(resolve, 5 * replacement.quietMs));
  /** Set anew each time PostgreSQL starts, so it tells a new thread from the old one. */
  const started = async (database: PGliteQueries) =>
    ((await database.query('select pg_postmaster_start_time()::text as at')).rows[0] as { at: string }).at;
  const open = async (onDisk = true) => {
    const dataDir = onDisk ? mkdtempSync(join(tmpdir(), 'vg-pglite-replace-')) : undefined;
    if (dataDir) {
      dataDirs.push(dataDir);
      cpSync(blankFiles, dataDir, { recursive: true });
    }
    const replacements: ThreadReplaced[] = [];
    let replaced = () => {};
    const database = await startPGliteThread(dataDir, {
      replacement,
      onReplaced: (report) => {
        replacements.push(report);
        replaced();
      },
    });
    onTestFinished(() => database.close());
    await database.query('create table orders (match_id text primary key)');
    const nextReplacement = () => new Promise<void>((resolve) => (replaced = resolve));
    return { database, replacements, nextReplacement };
  };
  const insertOrders = async (database: PGliteQueries, ids: string[]) => {
    for (const id of ids) await database.query('insert into orders values ($1)', [id]);
  };
  const orders = async (database: PGliteQueries) =>
    (await database.query('select match_id from orders order by match_id')).rows;

  it('opens the same files in a new thread once it is quiet, with everything committed', async () => {
    const { database, replacements, nextReplacement } = await open();
    const before = await started(database);
    const replaced = nextReplacement();
    await insertOrders(database, ['PL-1', 'PL-2', 'PL-3', 'PL-4', 'PL-5']);
    await replaced;
    expect(await started(database)).not.toBe(before);
    expect(replacements).toEqual([{ statements: expect.any(Number), tookMs: expect.any(Number) }]);
    expect(replacements[0]?.statements).toBeGreaterThanOrEqual(replacement.afterStatements);
    expect(await orders(database)).toHaveLength(5);
    await insertOrders(database, ['PL-6']);
    expect(await orders(database)).toHaveLength(6);
  });

  it('keeps the thread while statements keep coming, and replaces it once they stop', async () => {
    const { database, replacements, nextReplacement } = await open();
    const before = await started(database);
    // A statement every 10 ms, each one done before the next: the thread is mostly waiting, as a
    // server's is between requests, but never quiet.
    const busyUntil = Date.now() + 5 * replacement.quietMs;
    for (let i = 0; Date.now() < busyUntil; i++) {
      await insertOrders(database, [`PL-${i}`]);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(replacements).toEqual([]);
    expect(await started(database)).toBe(before);
    await nextReplacement();
    expect(await started(database)).not.toBe(before);
  });

  it('keeps the thread of an open transaction, and of a thread that has done little', async () => {
    const { database, replacements, nextReplacement } = await open();
    const before = await started(database);
    await looks();
    expect(replacements).toEqual([]);

    await database.query('begin');
    await insertOrders(database, ['PL-1', 'PL-2', 'PL-3', 'PL-4', 'PL-5']);
    await looks();
    expect(replacements).toEqual([]);
    expect(await started(database)).toBe(before);
    const replaced = nextReplacement();
    await database.query('commit');
    await replaced;
    expect(await started(database)).not.toBe(before);
    expect(await orders(database)).toHaveLength(5);
  });

  // An in-memory database has no files to copy a blank one from: it is created anew (by initdb, without
  // a build, 16 s beside a full test run on two cores, and past the default 20 s once under more load).
  it('never replaces the thread of an in-memory database, which holds its only copy', {
    timeout: 60_000,
  }, async () => {
    const { database, replacements } = await open(false);
    const before = await started(database);
    await insertOrders(database, ['PL-1', 'PL-2', 'PL-3', 'PL-4', 'PL-5']);
    await looks();
    expect(replacements).toEqual([]);
    expect(await started(database)).toBe(before);
    expect(await orders(database)).toHaveLength(5);
  });
});
