import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { type Db, migrate, openDatabase } from '../db/database.js';

export interface TestDatabase {
  name: 'pglite' | 'pglite in a thread' | 'postgres';
  /** A fresh, migrated, empty database of this kind. */
  open(): Promise<Db>;
}

function pglite(name: TestDatabase['name'], thread: boolean): TestDatabase {
  return {
    name,
    async open() {
      const db = await openDatabase({ kind: 'pglite', dataDir: undefined }, { thread });
      await migrate(db);
      return db;
    },
  };
}

/** For tests whose subject does not depend on the database kind. */
export const pgliteTestDatabase = pglite('pglite', false);

/** The embedded database as the server runs it, in a worker thread of its own. */
export const pgliteThreadTestDatabase = pglite('pglite in a thread', true);

function postgres(adminUrl: string): TestDatabase {
  return {
    name: 'postgres',
    async open() {
      const admin = await openDatabase({ kind: 'postgres', url: adminUrl, poolSize: 1 });
      const name = `vg_test_${randomBytes(6).toString('hex')}`;
      try {
        await sql`create database ${sql.id(name)}`.execute(admin);
      } finally {
        await admin.destroy();
      }
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const db = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 5 });
      await migrate(db);
      return db;
    },
  };
}

/** Every database kind the product supports and this machine can run: tests use `describe.each`. */
export function testDatabases(): TestDatabase[] {
  const url = inject('postgresUrl');
  return url ? [pgliteTestDatabase, postgres(url)] : [pgliteTestDatabase];
}
