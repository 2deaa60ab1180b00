import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { type Db, migrate, openDatabase } from '../db/database.js';
import { blankDumpFor } from '../db/pglite-blank.js';
import type { Database } from '../db/schema.js';

/**
 * Migrated, empty databases the tests copy instead of migrating each of their own: creating an embedded
 * database (initdb in WebAssembly) and migrating it cost about 3.7 s of CPU, loading the dump of a
 * migrated one about 0.9 s; PostgreSQL copies a template database's files.
 */
export interface DatabaseTemplates {
  /** A tar file of a migrated PGlite database's files (`dumpDataDir`). */
  pgliteDump: string;
  /** The same before the migrations: a database with no schema, what a backup is restored into. */
  pgliteBlankDump: string;
  /** The name of a migrated PostgreSQL database no one connects to, or '' without PostgreSQL. */
  postgresTemplate: string;
  remove(): Promise<void>;
}

export async function createDatabaseTemplates(postgresAdminUrl: string): Promise<DatabaseTemplates> {
  const folder = mkdtempSync(join(tmpdir(), 'vg-test-template-'));
  const pgliteDump = join(folder, 'migrated.tar');
  const pgliteBlankDump = join(folder, 'blank.tar');
  // From the build's blank dump where there is one, as the product creates a database; initdb otherwise.
  const pglite = await PGlite.create({ loadDataDir: await blankDumpFor(undefined) });
  try {
    writeFileSync(pgliteBlankDump, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    await migrate(new Kysely<Database>({ dialect: new PGliteDialect(pglite) }));
    writeFileSync(pgliteDump, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await pglite.close();
  }
  const postgresTemplate = postgresAdminUrl ? await createPostgresTemplate(postgresAdminUrl) : '';
  return {
    pgliteDump,
    pgliteBlankDump,
    postgresTemplate,
    async remove() {
      rmSync(folder, { recursive: true, force: true });
      // A server the global setup started is removed with its files; a given one keeps no template.
      if (postgresTemplate) await dropPostgresDatabase(postgresAdminUrl, postgresTemplate);
    },
  };
}

async function createPostgresTemplate(adminUrl: string): Promise<string> {
  const name = `vg_template_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => sql`create database ${sql.id(name)}`.execute(admin));
  // Closed again before any copy: PostgreSQL refuses to copy a template someone is connected to.
  const db = await openDatabase({ kind: 'postgres', url: databaseUrl(adminUrl, name), poolSize: 1 });
  try {
    await migrate(db);
  } finally {
    await db.destroy();
  }
  return name;
}

async function dropPostgresDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (admin) => sql`drop database if exists ${sql.id(name)}`.execute(admin));
}

export async function withAdmin<T>(adminUrl: string, run: (admin: Db) => Promise<T>): Promise<T> {
  const admin = await openDatabase({ kind: 'postgres', url: adminUrl, poolSize: 1 });
  try {
    return await run(admin);
  } finally {
    await admin.destroy();
  }
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
