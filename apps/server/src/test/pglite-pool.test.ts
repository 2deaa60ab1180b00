import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { createPGlite, openPGlite } from '../db/pglite.js';
import { migratedPGliteDump, pgliteTestDatabase, pgliteTestDb, pgliteTestPool } from './databases.js';
import { PGlitePool } from './pglite-pool.js';

type Run = (text: string) => Promise<Record<string, unknown>[]>;
const on =
  (db: Db): Run =>
  async (text) =>
    (await sql.raw(text).execute(db)).rows as Record<string, unknown>[];

/**
 * What a test could see of a database's state: every table's rows (as the text of each record, in the
 * order a scan returns them), every sequence's position, the session's settings, its advisory locks,
 * prepared statements and temporary tables.
 */
async function stateOf(run: Run) {
  const tables = (await run(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  )) as { name: string }[];
  const sequences = (await run(
    `select format('%I.%I', schemaname, sequencename) as name from pg_sequences order by 1`,
  )) as { name: string }[];
  const rows: Record<string, string[]> = {};
  for (const { name } of tables) {
    rows[name] = ((await run(`select (t.*)::text as row from ${name} t`)) as { row: string }[]).map(
      (r) => r.row,
    );
  }
  const positions: Record<string, unknown> = {};
  for (const { name } of sequences) {
    positions[name] = (await run(`select last_value::text, is_called from ${name}`))[0];
  }
  return {
    tables: tables.map((table) => table.name),
    rows,
    positions,
    settings: await run(`select name, setting from pg_settings order by name`),
    advisoryLocks: await run(`select objid from pg_locks where locktype = 'advisory'`),
    prepared: await run(`select name from pg_prepared_statements`),
    temporary: await run(`select relname from pg_class where relpersistence = 't'`),
  };
}

describe('PGlite instances used again by later tests', () => {
  const pool = new PGlitePool(migratedPGliteDump, { maxParked: 2 });
  const open = async () => pgliteTestDb(await pool.open());
  let fresh: Awaited<ReturnType<typeof stateOf>>;
  let freshNextAuditId: unknown;

  beforeAll(async () => {
    const loaded = await openPGlite(undefined, { loadDataDir: await migratedPGliteDump() });
    const run: Run = async (text) => (await loaded.query(text)).rows as Record<string, unknown>[];
    try {
      fresh = await stateOf(run);
      freshNextAuditId = (await run(`select nextval('audit_entries_id_seq')::text as id`))[0];
    } finally {
      await loaded.close();
    }
  });
  afterAll(() => pool.close());

  it('reuses the instance a test destroyed, in the state of a freshly loaded one', async () => {
    // The comparison must see what a test leaves behind: the seeds of the migrations are there.
    expect(fresh.rows['public.retention_rules']).toHaveLength(8);
    expect(fresh.rows['public.approval_rules']).toHaveLength(1);

    const db = await open();
    const loads = pool.loads;
    const run = on(db);
    await run(`insert into users (email, name, permission) values ('anna@example.com', 'Anna', 1)`);
    await run(
      `insert into documents (match_id, doc_key, form, created_by, status, file_name, data, data_sha256)
       values ('M-1', 'wm', 'f', 'anna@example.com', 'ready', 'a.docx', '{}', 'x')`,
    );
    await run(
      `insert into document_versions (document_id, version, content, sha256, size, created_by)
       select id, 1, '\\x00ff'::bytea, 'y', 2, 'anna@example.com' from documents`,
    );
    await run(`insert into support_reports (reporter_email, reporter_name, subject, body)
               values ('anna@example.com', 'Anna', 'Hilfe', 'Text')`);
    // Rows of the migrations changed, removed and added.
    await run(`update approval_rules set version = 7, changed_by = 'anna@example.com'`);
    await run(`delete from retention_rules where rule = 'envelope_drafts'`);
    await run(`insert into retention_rules (rule, period_value, period_unit) values ('extra', 1, 'days')`);
    await run(`delete from kysely_migration`);
    await run(`select nextval('audit_entries_id_seq'), nextval('audit_entries_id_seq')`);
    await run(`select pg_advisory_lock(4711)`);
    await run(`set timezone = 'Asia/Tokyo'`);
    await run(`set statement_timeout = '1234s'`);
    await run(`create temporary table scratch (id int)`);
    // A statement with a parameter is prepared (as vg_1) by the product's query path.
    await sql`select name from users where email = ${'anna@example.com'}`.execute(db);
    const used = await stateOf(run);
    expect(used.prepared.length).toBeGreaterThan(0);
    expect(used.advisoryLocks).toHaveLength(1);
    expect(used.settings).not.toEqual(fresh.settings);
    expect(used.rows).not.toEqual(fresh.rows);
    await db.destroy();
    expect(pool.parked).toBe(1);

    const again = await open();
    try {
      expect(pool.loads).toBe(loads);
      expect(pool.parked).toBe(0);
      const reused = await stateOf(on(again));
      expect(reused).toEqual(fresh);
      expect((await on(again)(`select nextval('audit_entries_id_seq')::text as id`))[0]).toEqual(
        freshNextAuditId,
      );
      // The statement prepared again under the same name, and others with it.
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from users where email = ${'a'}`.execute(again);
      expect(rows).toEqual([{ n: 0 }]);
      await sql`insert into users (email, name) values (${'anna@example.com'}, ${'Anna'})`.execute(again);
    } finally {
      await again.destroy();
    }
  });

  it('writes back the rows a dump has exactly, whatever their columns', async () => {
    // A dump with rows of the kinds of column whose text is easily changed on the way: bytea, numerics
    // and floats, instants, json as written (spaces and all), arrays; identity and generated columns.
    const base = await createPGlite(undefined, { loadDataDir: await migratedPGliteDump() });
    await base.exec(`
      create table kinds (
        id int generated always as identity primary key,
        b bytea, n numeric, f float8, t timestamptz, j json, jb jsonb, a text[],
        twice int generated always as (id * 2) stored
      );
      insert into kinds (b, n, f, t, j, jb, a) values
        ('\\x00ff10', 12345678901234567890.000000000001, 0.1, '2024-02-29 23:59:59.123456+05:30',
         '{"b": 1,  "a": [1.50]}', '{"x": "ä"}', array['a,b', 'c"d', null]),
        (null, 'NaN', 1e-300, '-infinity', '[]', 'null', '{}');`);
    const dump = await base.dumpDataDir('none');
    await base.close();
    const kinds = new PGlitePool(async () => dump, { maxParked: 1 });
    const rowsOf = async (db: Db) => on(db)(`select (k.*)::text as row from kinds k`);
    try {
      const first = await pgliteTestDb(await kinds.open());
      const loaded = await rowsOf(first);
      expect(loaded).toHaveLength(2);
      const identity = await on(first)(`select last_value::text, is_called from kinds_id_seq`);
      await on(first)(`update kinds set b = '\\x01', n = 1, j = '{}' where id = 1`);
      await on(first)(`delete from kinds where id = 2`);
      await on(first)(`insert into kinds (a) values (array['x'])`);
      await first.destroy();

      const again = await pgliteTestDb(await kinds.open());
      try {
        expect(kinds.loads).toBe(1);
        expect(await rowsOf(again)).toEqual(loaded);
        // The identity column goes on where it stood in the dump; the generated one is computed.
        expect(await on(again)(`select last_value::text, is_called from kinds_id_seq`)).toEqual(identity);
        await on(again)(`insert into kinds (a) values ('{}')`);
        expect(await on(again)(`select twice = id * 2 as computed from kinds where n is null`)).toEqual([
          { computed: true },
        ]);
      } finally {
        await again.destroy();
      }
    } finally {
      await kinds.close();
    }
  });

  it('rolls back a transaction the test left open', async () => {
    const db = await open();
    await sql`begin`.execute(db);
    await sql`insert into users (email, name) values (${'open@example.com'}, ${'Offen'})`.execute(db);
    await db.destroy();

    const again = await open();
    try {
      expect((await on(again)(`select count(*)::int as n from users`))[0]).toEqual({ n: 0 });
      expect((await on(again)(`select now() = statement_timestamp() as outside`))[0]).toEqual({
        outside: true,
      });
    } finally {
      await again.destroy();
    }
  });

  it.each([
    ['adds a column', 'alter table users add column nickname text'],
    ['creates an index', 'create index users_name on users (name)'],
    ['turns off the foreign keys', 'alter table document_versions disable trigger all'],
    ['changes a sequence', 'alter sequence audit_entries_id_seq increment by 10'],
    ['creates a function', 'create function answer() returns int language sql as $$ select 42 $$'],
  ])('closes an instance whose schema a test changed: %s', async (_, ddl) => {
    await pool.close();
    const db = await open();
    await sql.raw(ddl).execute(db);
    await db.destroy();
    expect(pool.parked).toBe(0);

    const loads = pool.loads;
    const again = await open();
    try {
      expect(pool.loads).toBe(loads + 1);
      expect((await stateOf(on(again))).tables).toEqual(fresh.tables);
      expect(
        await on(again)(`select 1 from information_schema.columns where column_name = 'nickname'`),
      ).toEqual([]);
    } finally {
      await again.destroy();
    }
  });

  it('parks an instance once when it is closed twice', async () => {
    await pool.close();
    const lease = await pool.open();
    await Promise.all([lease.close(), lease.close()]);
    await lease.close();
    expect(pool.parked).toBe(1);

    const loads = pool.loads;
    const first = await pool.open();
    const second = await pool.open();
    expect(pool.loads).toBe(loads + 1);
    await Promise.all([first.close(), second.close()]);
    expect(pool.parked).toBe(2);
  });

  it('refuses statements through a closed database, which the next test has by then', async () => {
    await pool.close();
    const lease = await pool.open();
    const db = await pgliteTestDb(lease);
    await db.destroy();

    const next = await open();
    try {
      await expect(
        lease.query(`insert into users (email, name) values ('late@example.com', 'Spät')`),
      ).rejects.toThrow('PGlite is closed');
      await expect(sql`select 1`.execute(db)).rejects.toThrow();
      expect((await on(next)(`select count(*)::int as n from users`))[0]).toEqual({ n: 0 });
    } finally {
      await next.destroy();
    }
  });

  it('serves pgliteTestDatabase: a destroyed database is opened again, not loaded', async () => {
    const db = await pgliteTestDatabase.open();
    await db.destroy();
    const loads = pgliteTestPool.loads;
    const again = await pgliteTestDatabase.open();
    expect(pgliteTestPool.loads).toBe(loads);
    await again.destroy();
  });
});
