import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { type Db, migrate, openDatabase } from '../db/database.js';

export interface TestDatabase {
  name: 'pglite' | 'pglite in a thread' | 'postgres';
  /** A fresh, migrated, empty database of this kind. */
  open(): Promise<Db>;
  /** A fresh database of this kind without even the schema: what a backup is restored into. */
  openBlank(): Promise<Db>;
}

/** `open` is `openBlank` and the migrations, as a server's start does. */
function withMigrations(name: TestDatabase['name'], openBlank: () => Promise<Db>): TestDatabase {
  return {
    name,
    openBlank,
    async open() {
      const db = await openBlank();
      await migrate(db);
      return db;
    },
  };
}

function pglite(name: TestDatabase['name'], thread: boolean): TestDatabase {
  return withMigrations(name, () => openDatabase({ kind: 'pglite', dataDir: undefined }, { thread }));
}

/** For tests whose subject does not depend on the database kind. */
export const pgliteTestDatabase = pglite('pglite', false);

/** The embedded database as the server runs it, in a worker thread of its own. */
export const pgliteThreadTestDatabase = pglite('pglite in a thread', true);

/** A new, empty PostgreSQL database on the test server; answers its URL. */
export async function createPostgresDatabase(adminUrl: string, prefix = 'vg_test'): Promise<string> {
  const admin = await openDatabase({ kind: 'postgres', url: adminUrl, poolSize: 1 });
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  try {
    await sql`create database ${sql.id(name)}`.execute(admin);
  } finally {
    await admin.destroy();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function postgres(adminUrl: string): TestDatabase {
  return withMigrations('postgres', async () =>
    openDatabase({ kind: 'postgres', url: await createPostgresDatabase(adminUrl), poolSize: 5 }),
  );
}

/** Every database kind the product supports and this machine can run: tests use `describe.each`. */
export function testDatabases(): TestDatabase[] {
  const url = inject('postgresUrl');
  return url ? [pgliteTestDatabase, postgres(url)] : [pgliteTestDatabase];
}
