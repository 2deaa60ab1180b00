import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../db/database.js';
import type { PGliteQueries } from '../db/pglite.js';
import { startPGliteThread } from '../db/pglite-thread.js';
import { CRASH_MARKER } from '../test/faulty-pglite-worker.js';

/**
 * The thread the embedded database runs in dies: the statement it ran fails as an unavailable
 * database (503 with a German message, like a stopped PostgreSQL), and the next statement runs in a
 * new thread on the same files, with everything committed before still there.
 */
describe('a database thread that dies', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vg-pglite-crash-'));
  let db: PGliteQueries;

  beforeAll(async () => {
    db = await startPGliteThread(dataDir, {
      worker: new URL('../test/faulty-pglite-worker.ts', import.meta.url),
    });
    await db.query('create table orders (match_id text primary key)');
    await db.query('insert into orders values ($1)', ['PL-123456']);
  });
  afterAll(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('fails the statement it ran as an unavailable database', async () => {
    const error = await db.query(`select 1 ${CRASH_MARKER}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('runs the next statement in a new thread, with what was committed before', async () => {
    expect((await db.query('select match_id from orders where match_id like $1', ['PL-%'])).rows).toEqual([
      { match_id: 'PL-123456' },
    ]);
    await db.query('insert into orders values ($1)', ['PL-654321']);
    expect((await db.query('select count(*)::int as n from orders where $1', [true])).rows).toEqual([
      { n: 2 },
    ]);
  });
});
