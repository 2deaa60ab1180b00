import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratedPGliteDump } from '../test/databases.js';
import { openPGlite, type PGliteQueries } from './pglite.js';

describe('PGlite statements prepared once', () => {
  let db: PGliteQueries;
  beforeEach(async () => {
    db = await openPGlite(undefined, { loadDataDir: await migratedPGliteDump() });
    await db.query('create table contracts (id int primary key, customer text)');
  });
  afterEach(async () => {
    await db.close();
  });

  const prepared = async () =>
    Number(
      ((await db.query('select count(*)::int as n from pg_prepared_statements')).rows[0] as { n: number }).n,
    );

  it('answers each execution with its own parameters', async () => {
    const insert = 'insert into contracts (id, customer) values ($1, $2)';
    for (let id = 1; id <= 20; id++) await db.query(insert, [id, `Kunde ${id}`]);
    const select = 'select customer from contracts where id = $1';
    for (const id of [3, 17, 9]) {
      expect((await db.query(select, [id])).rows).toEqual([{ customer: `Kunde ${id}` }]);
    }
    expect((await db.query('update contracts set customer = $1 where id > $2', ['X', 15])).affectedRows).toBe(
      5,
    );
    // One plan per statement text, not per execution.
    expect(await prepared()).toBe(3);
  });

  it('keeps no more than its bound of plans, and evicted statements still run', async () => {
    for (let i = 0; i < 230; i++) {
      const { rows } = await db.query(`select $1::int + ${i} as value`, [1]);
      expect(rows).toEqual([{ value: 1 + i }]);
    }
    expect(await prepared()).toBeLessThanOrEqual(200);
    expect((await db.query('select $1::int + 0 as value', [5])).rows).toEqual([{ value: 5 }]);
  });

  it('reports a statement that cannot be prepared the same way every time', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await db.query('select * from no_such_table where id = $1', [1]).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: '42P01' });
    }
    expect((await db.query('select count(*)::int as n from contracts where id > $1', [0])).rows).toEqual([
      { n: 0 },
    ]);
  });

  it('prepares again after a table changed its columns', async () => {
    const select = 'select * from contracts where id = $1';
    await db.query('insert into contracts values ($1, $2)', [1, 'Anna']);
    expect((await db.query(select, [1])).rows).toEqual([{ id: 1, customer: 'Anna' }]);
    await db.query('alter table contracts add column rate numeric');
    const first = await db.query(select, [1]).catch((e: unknown) => e);
    if (first instanceof Error) expect(first).toMatchObject({ code: '0A000' });
    expect((await db.query(select, [1])).rows).toEqual([{ id: 1, customer: 'Anna', rate: null }]);
  });

  it('keeps a statement prepared inside a transaction that was rolled back', async () => {
    const insert = 'insert into contracts (id, customer) values ($1, $2)';
    await db.query('begin');
    await db.query(insert, [1, 'Rolled back']);
    await db.query('rollback');
    await db.query(insert, [2, 'Kept']);
    expect((await db.query('select customer from contracts where id >= $1', [0])).rows).toEqual([
      { customer: 'Kept' },
    ]);
  });

  it('prepares nothing inside a failed transaction, and works after its rollback', async () => {
    await db.query('begin');
    await expect(db.query('select 1/$1::int', [0])).rejects.toMatchObject({ code: '22012' });
    await expect(db.query('select customer from contracts where id = $1', [1])).rejects.toMatchObject({
      code: '25P02',
    });
    await db.query('rollback');
    expect((await db.query('select customer from contracts where id = $1', [1])).rows).toEqual([]);
    expect((await db.query('select 1/$1::int as q', [1])).rows).toEqual([{ q: 1 }]);
  });
});
