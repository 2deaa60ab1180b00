import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { Config } from '../config.js';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/**
 * Opens the database the configuration names: PGlite files under DATA_DIR by default, PostgreSQL when
 * DATABASE_URL is set. `pglite` without a data directory gives an in-memory database (tests).
 */
export async function openDatabase(
  target: Config['database'] | { kind: 'pglite'; dataDir: undefined },
): Promise<Db> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize });
    // An idle client that loses its server must not crash the process (DESIGN §7: 503, not a crash).
    pool.on('error', () => {});
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  if (target.dataDir) await mkdir(target.dataDir, { recursive: true });
  const pglite = new PGlite(target.dataDir);
  return new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
}

/** Applies pending migrations; Kysely's migration lock makes this safe with several replicas. */
export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
