import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { type Db, migrate, openDatabase, pgliteDatabase } from '../db/database.js';
import { openPGlite, type PGliteQueries } from '../db/pglite.js';
import { databaseUrl, withAdmin } from './database-templates.js';
import { PGlitePool } from './pglite-pool.js';

export interface TestDatabase {
  name: 'pglite' | 'pglite in a thread' | 'postgres';
  /** A fresh, migrated, empty database of this kind. */
  open(): Promise<Db>;
  /** A fresh database of this kind without even the schema: what a backup is restored into. */
  openBlank(): Promise<Db>;
}

/** The dumps the global setup wrote, each read once per worker. */
const pgliteDumps = new Map<'pgliteDump' | 'pgliteBlankDump', Promise<Blob>>();

function dumpOf(name: 'pgliteDump' | 'pgliteBlankDump'): Promise<Blob> {
  let dump = pgliteDumps.get(name);
  if (!dump) {
    dump = readFile(inject(name)).then((tar) => new Blob([tar]));
    pgliteDumps.set(name, dump);
  }
  return dump;
}

/**
 * The global setup's migrated PGlite database, to load with `loadDataDir`: a blank PGlite runs initdb,
 * about 3 CPU-seconds each (three times that on a machine busy with the other test files), where
 * loading this takes under one.
 */
export const migratedPGliteDump = (): Promise<Blob> => dumpOf('pgliteDump');

/** Kysely over an in-memory PGlite, with the product's own query path (`openPGlite`). */
export async function pgliteTestDb(pglite: PGliteQueries): Promise<Db> {
  const db = pgliteDatabase(pglite);
  // Kysely's destroy closes only a driver that has run a statement, as the migrations did: without
  // one, a database destroyed before its first query would stay open and answer on (and, from the
  // pool, would never be reset and parked).
  await sql`select 1`.execute(db);
  return db;
}

/**
 * The worker's migrated databases: a destroyed one is reset to the dump's state and opened again by
 * a later test, which saves loading the dump (pglite-pool.ts).
 */
export const pgliteTestPool = new PGlitePool(migratedPGliteDump);

/**
 * For tests whose subject does not depend on the database kind. A fresh database is in the state of one
 * of the global setup's dumps, migrated or blank (initdb done, no schema), as `openDatabase` opens an
 * in-memory one.
 */
export const pgliteTestDatabase: TestDatabase = {
  name: 'pglite',
  open: async () => pgliteTestDb(await pgliteTestPool.open()),
  // Loaded each time, not pooled: a backup is restored into it, schema and all, so a used one would
  // never pass the reset's check that the schema is unchanged; resetting it would only cost time.
  openBlank: async () =>
    pgliteTestDb(await openPGlite(undefined, { loadDataDir: await dumpOf('pgliteBlankDump') })),
};

/** The embedded database as the server runs it, in a worker thread of its own, migrated as at a start. */
export const pgliteThreadTestDatabase: TestDatabase = {
  name: 'pglite in a thread',
  async open() {
    const db = await this.openBlank();
    await migrate(db);
    return db;
  },
  openBlank: () => openDatabase({ kind: 'pglite', dataDir: undefined }, { thread: true }),
};

/** A new PostgreSQL database on the test server, empty or a copy of `template`; answers its URL. */
export async function createPostgresDatabase(
  adminUrl: string,
  prefix = 'vg_test',
  template?: string,
): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (admin) =>
    template
      ? sql`create database ${sql.id(name)} template ${sql.id(template)}`.execute(admin)
      : sql`create database ${sql.id(name)}`.execute(admin),
  );
  return databaseUrl(adminUrl, name);
}

/** Migrated databases are copies of the global setup's migrated template database. */
function postgres(adminUrl: string, template: string): TestDatabase {
  const open = async (from?: string) =>
    openDatabase({
      kind: 'postgres',
      url: await createPostgresDatabase(adminUrl, 'vg_test', from),
      poolSize: 5,
    });
  return { name: 'postgres', open: () => open(template), openBlank: () => open() };
}

/** Every database kind the product supports and this machine can run: tests use `describe.each`. */
export function testDatabases(): TestDatabase[] {
  const url = inject('postgresUrl');
  return url ? [pgliteTestDatabase, postgres(url, inject('postgresTemplate'))] : [pgliteTestDatabase];
}
