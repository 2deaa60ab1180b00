import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { DEFAULT_MIGRATION_TABLE, Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type pg from 'pg';
import type { Config } from '../config/config.js';
import { migrationProvider } from './migrations/index.js';
import type { PGliteQueries } from './pglite.js';
import { startPGliteThread, type ThreadReplaced } from './pglite-thread.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** The PostgreSQL pool behind each database opened here, for the metrics; the embedded one has none. */
const pools = new WeakMap<Db, pg.Pool>();

/** Connections of `db`'s pool handed out to requests; undefined for the embedded database. */
export function databasePoolInUse(db: Db): number | undefined {
  const pool = pools.get(db);
  return pool ? pool.totalCount - pool.idleCount : undefined;
}

/**
 * Opens the database the configuration names: PGlite files under DATA_DIR by default, PostgreSQL when
 * DATABASE_URL is set. `pglite` without a data directory gives an in-memory database (tests).
 *
 * PGlite runs in a worker thread of its own unless `thread` is false: tests open hundreds of small
 * databases, where starting a thread for each costs more than it saves. With `createMigrated`, new
 * PGlite files are created with the migrations applied, by the process that creates them
 * (pglite-create.ts); a restore creates them empty.
 */
export async function openDatabase(
  target: Config['database'] | { kind: 'pglite'; dataDir: undefined },
  {
    thread = true,
    createMigrated = false,
    onThreadReplaced,
  }: {
    thread?: boolean;
    createMigrated?: boolean;
    /** PGlite in its thread: told when a fresh thread has taken over (pglite-thread.ts). */
    onThreadReplaced?: (replaced: ThreadReplaced) => void;
  } = {},
): Promise<Db> {
  if (target.kind === 'postgres') {
    // Loaded for PostgreSQL only: on PGlite the server's thread needs none of node-postgres.
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize });
    // A client that loses its server must not crash the process: the request answers 503 instead. The
    // pool listens on idle clients only; one a request holds between two statements reports the loss
    // as an 'error' event too, and its next statement then fails, which answers the request.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pools.set(db, pool);
    return db;
  }
  if (target.dataDir) {
    await mkdir(target.dataDir, { recursive: true });
    claimDataDir(target.dataDir);
  }
  const pglite = thread
    ? await startPGliteThread(target.dataDir, { createMigrated, onReplaced: onThreadReplaced })
    : await (await import('./pglite.js')).openPGlite(target.dataDir);
  return pgliteDatabase(pglite);
}

/**
 * Kysely over the embedded database, in this thread or in its own. The dialect needs only `query` and
 * `close`, and its connection lock keeps a transaction's statements together whichever thread runs them.
 */
export function pgliteDatabase(pglite: PGliteQueries): Db {
  return new Kysely<Database>({ dialect: new PGliteDialect(pglite as unknown as PGlite) });
}

/** Applies pending migrations; Kysely's migration lock makes this safe with several replicas. */
export async function migrate(db: Db): Promise<void> {
  if (await allMigrationsApplied(db)) return;
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}

/**
 * Whether the database has exactly the migrations this version knows: then a start has nothing to do.
 * One query instead of the Migrator's, which looks the schema up (twice, 330 rows each) and takes its
 * lock before it reads the same list. Anything else (a new database, a pending or an unknown migration)
 * is left to the Migrator.
 */
async function allMigrationsApplied(db: Db): Promise<boolean> {
  const known = Object.keys(await migrationProvider.getMigrations());
  let applied: string[];
  try {
    const { rows } = await sql<{
      name: string;
    }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
    applied = rows.map((row) => row.name);
  } catch {
    // No migration table yet: a new database.
    return false;
  }
  return applied.length === known.length && known.every((name) => applied.includes(name));
}

export class DatabaseInUseError extends Error {
  override name = 'DatabaseInUseError';
}

/** The file in the data directory that names the process using the embedded database. */
export const DATA_DIR_LOCK = 'vertragsgenerator.pid';

/**
 * PGlite is one process's database: a second process on the same files would corrupt them. A pid file
 * refuses the second one (a running server while `npm run users` is called) with a clear message.
 */
function claimDataDir(dataDir: string): void {
  const lockFile = join(dataDir, DATA_DIR_LOCK);
  try {
    writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = Number(readFileSync(lockFile, 'utf8'));
    if (owner && owner !== process.pid && isAlive(owner)) {
      throw new DatabaseInUseError(
        `The embedded database in ${dataDir} is in use by process ${owner} (is the server running?). ` +
          'Stop it first, or use PostgreSQL (DATABASE_URL) to share the database between processes.',
      );
    }
    writeFileSync(lockFile, String(process.pid));
  }
  process.once('exit', () => rmSync(lockFile, { force: true }));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Errors of the database driver that mean "the database is not reachable", not "the query is wrong". */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'].includes(code))
      return true;
    // 08xxx connection exceptions, 57P0x operator intervention (shutdown), 53xxx insufficient resources
    if (/^(08|57P0|53)/.test(code)) return true;
  }
  const message = error instanceof Error ? error.message : '';
  // "… is not queryable": the statement after a lost connection, on the client that lost it.
  return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|is not queryable/i.test(
    message,
  );
}
