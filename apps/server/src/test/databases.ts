import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { inject } from 'vitest';
import { type Db, migrate, openDatabase } from '../db/database.js';
import { openPGlite } from '../db/pglite.js';
import type { Database } from '../db/schema.js';
import { databaseUrl, withAdmin } from './database-templates.js';

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

/** An in-memory PGlite from a dump, with the product's own query path (`openPGlite`). */
async function loadedPGlite(dump: Blob): Promise<Db> {
  const pglite = await openPGlite(undefined, { loadDataDir: dump });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite as unknown as PGlite) });
  // Kysely's destroy closes only a driver that has run a statement, as the migrations did: without
  // one, a database destroyed before its first query would stay open and answer on.
  await sql`select 1`.execute(db);
  return db;
}

/**
 * For tests whose subject does not depend on the database kind. A fresh database is loaded from one of
 * the global setup's dumps, migrated or blank (initdb done, no schema), as `openDatabase` opens an
 * in-memory one.
 */
export const pgliteTestDatabase: TestDatabase = {
  name: 'pglite',
  open: async () => loadedPGlite(await migratedPGliteDump()),
  openBlank: async () => loadedPGlite(await dumpOf('pgliteBlankDump')),
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
