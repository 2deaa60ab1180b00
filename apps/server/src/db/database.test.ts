import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../db/database.js';
import { pgliteThreadTestDatabase, type TestDatabase, testDatabases } from '../test/databases.js';
import type { Db } from './database.js';

describe.each([...testDatabases(), pgliteThreadTestDatabase])('bytea on $name', (database) => {
  let db: Db;

  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(async () => {
    await db.destroy();
  });

  // Every byte value, and a document-sized buffer with a view that does not start at offset 0.
  const everyByte = Uint8Array.from({ length: 256 }, (_, i) => i);
  const document = randomBytes(64 * 1024).subarray(7, 40_007);

  it.each([
    ['every byte value', everyByte],
    ['a 40 kB view into a larger buffer', document],
    ['nothing', new Uint8Array(0)],
  ])('stores %s exactly', async (_name, bytes) => {
    const { rows } = await sql<{ size: number; md5: string }>`
      select length(${bytes}::bytea) as size, md5(${bytes}::bytea) as md5`.execute(db);
    expect(rows[0]).toEqual({
      size: bytes.byteLength,
      md5: createHash('md5').update(bytes).digest('hex'),
    });
  });

  it.each([
    ['every byte value', everyByte],
    ['a 40 kB view into a larger buffer', document],
  ])('reads %s back as a Uint8Array', async (_name, bytes) => {
    const { rows } = await sql<{ content: Uint8Array }>`select ${bytes}::bytea as content`.execute(db);
    const content = rows[0]?.content;
    expect(content).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(content as Uint8Array).equals(Buffer.from(bytes))).toBe(true);
  });
});

const postgres = testDatabases().find((database) => database.name === 'postgres');

describe.skipIf(!postgres)('a PostgreSQL connection lost while a request holds it', () => {
  it('fails that request as an unavailable database, with no uncaught error, and the pool serves on', async () => {
    const db = await (postgres as TestDatabase).open();
    try {
      const transaction = db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        // Ended from another connection while this one is checked out, idle between statements: its
        // client reports the loss as an 'error' event, which nothing else would listen to.
        await sql`select pg_terminate_backend(${rows[0]?.pid})`.execute(db);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await sql`select 1`.execute(trx);
      });
      const error = await transaction.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect((await sql<{ ok: number }>`select 1 as ok`.execute(db)).rows).toEqual([{ ok: 1 }]);
    } finally {
      await db.destroy();
    }
  });
});
