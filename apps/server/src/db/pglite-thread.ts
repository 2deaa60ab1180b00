import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { runSiblingProcess, siblingWorkerModule, workerStartOptions } from '../shared/worker-module.js';
import type { PGliteQueries, QueryResult } from './pglite.js';
import type { DatabaseOutcome, DatabaseTask, DatabaseThreadData } from './pglite-worker.js';

/** pglite-create.ts' flag: apply the migrations to the new database. */
export const MIGRATED = '--migrated';

/**
 * PGlite in a worker thread of its own. On the server's thread each query runs synchronously in
 * WebAssembly, and while documents were generated that took half of the thread's time: the event
 * loop was delayed by 60 ms at p99. Here only the messages pass the server's thread.
 *
 * A piscina pool of one thread, as for rendering: it loads the TypeScript source under tests, and if
 * the thread dies (a WebAssembly abort, out of memory) the statement it ran fails as a lost
 * connection and a new thread opens the same files for the next one.
 * Resolves once the database is open; a database that cannot be opened rejects with its error.
 *
 * `worker` is the thread's module, pglite-worker beside this file by default; tests wrap it to crash.
 */
export async function startPGliteThread(
  dataDir: string | undefined,
  {
    worker = siblingWorkerModule(import.meta.url, 'pglite-worker'),
    createMigrated = false,
    replacement = THREAD_REPLACEMENT,
    onReplaced = () => {},
  }: {
    worker?: URL;
    createMigrated?: boolean;
    replacement?: ThreadReplacement;
    /** Told each time a new thread has opened the files in place of the old one. */
    onReplaced?: (replaced: ThreadReplaced) => void;
  } = {},
): Promise<PGliteQueries> {
  if (dataDir !== undefined && !existsSync(join(dataDir, 'PG_VERSION'))) {
    // Creating the database files (PostgreSQL's initdb) grows PGlite's WebAssembly memory by about
    // 500 MB, which WebAssembly never gives back: a process of its own creates them (and applies the
    // migrations, for the server) and ends, and the thread opens the files afresh, as after a restart.
    await createInOwnProcess(dataDir, createMigrated);
  }
  return openThread(dataDir, worker, replacement, onReplaced);
}

async function createInOwnProcess(dataDir: string, migrated: boolean): Promise<void> {
  try {
    await runSiblingProcess(import.meta.url, 'pglite-create', [dataDir, ...(migrated ? [MIGRATED] : [])]);
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(
      `the embedded database could not be created in ${dataDir}: ${stderr?.trim() || (error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * When the embedded database's thread is replaced by a fresh one. PGlite's WebAssembly memory never
 * shrinks, and as a thread works through a busy spell more and more of it becomes resident: in the
 * soak the server on PGlite ended 100 MiB above its size after start (docs/performance.md, Soak). A
 * thread that has run `afterStatements` statements since it opened is closed cleanly once the database
 * is quiet, and a new one opens the same files, as at a start. Quiet is at most `quietStatements` in
 * `quietMs` and none running: the background jobs look at their queues every 10 and 30 s
 * (wiring/integrations.ts, shared/background-jobs.ts), so the database is never idle for long, but
 * under load it runs hundreds of statements a second. The busy thread is never interrupted: a
 * statement that comes while the new thread opens (about half a second) waits for it. Never inside a
 * transaction, and never for an in-memory database, whose data lives only in its thread.
 */
export interface ThreadReplacement {
  afterStatements: number;
  quietMs: number;
  quietStatements: number;
}

/** What the server logs of a replacement. */
export interface ThreadReplaced {
  /** Statements the old thread ran. */
  statements: number;
  /** From closing the old thread until the new one had opened the files: statements waited as long. */
  tookMs: number;
}

/**
 * A few thousand statements are an hour of office work, so a replacement comes at most that often and
 * its half second rarely meets a request; a person clicking through a form is still quiet.
 */
const THREAD_REPLACEMENT: ThreadReplacement = {
  afterStatements: 5_000,
  quietMs: 20_000,
  quietStatements: 60,
};

async function openThread(
  dataDir: string | undefined,
  worker: URL,
  replacement: ThreadReplacement,
  onReplaced: (replaced: ThreadReplaced) => void,
): Promise<PGliteQueries> {
  const newPool = () =>
    new Piscina<DatabaseTask, DatabaseOutcome>({
      ...workerStartOptions(worker),
      workerData: { dataDir } satisfies DatabaseThreadData,
      minThreads: 1,
      maxThreads: 1,
      // Kysely's PGlite driver sends one statement at a time; the queue holds what waits for its lock.
      concurrentTasksPerWorker: 1,
      // The thread waits for its next task on its event loop, not blocked in Atomics.wait.
      atomics: 'disabled',
      idleTimeout: Number.POSITIVE_INFINITY,
    });
  let pool = newPool();
  let closed = false;
  let running = 0;
  let statements = 0;
  let statementsAtLastLook = 0;
  let transactionOpen = false;
  let replacing: Promise<void> | undefined;

  const submit = async (task: DatabaseTask): Promise<Extract<DatabaseOutcome, { ok: true }>> => {
    let outcome: DatabaseOutcome;
    try {
      outcome = await pool.run(task);
    } catch (error) {
      // The thread died under this statement; piscina starts a new one for the next.
      throw connectionLost((error as Error).message);
    }
    if (!outcome.ok) throw databaseError(outcome.error);
    return outcome;
  };

  const replaceThread = async () => {
    const old = pool;
    // A close that fails leaves the files as a crash would, which the new thread's PostgreSQL recovers.
    await submit({ kind: 'close' }).catch(() => {});
    await old.destroy().catch(() => {});
    pool = newPool();
    statements = 0;
    statementsAtLastLook = 0;
    // A new thread that cannot open the files fails the next statement with the reason.
    await submit({ kind: 'open' }).catch(() => {});
  };

  const replaceWhenQuiet = () => {
    const recent = statements - statementsAtLastLook;
    statementsAtLastLook = statements;
    const quiet = recent <= replacement.quietStatements && running === 0 && !transactionOpen;
    if (statements < replacement.afterStatements || !quiet || closed || replacing) return;
    const ranStatements = statements;
    const started = performance.now();
    // Never rejects: the statements waiting for it must not fail because of a replacement.
    replacing = replaceThread().finally(() => {
      replacing = undefined;
    });
    replacing.then(() =>
      onReplaced({ statements: ranStatements, tookMs: Math.round(performance.now() - started) }),
    );
  };
  // An in-memory database has its only copy in its thread.
  const quietLooks = dataDir === undefined ? undefined : setInterval(replaceWhenQuiet, replacement.quietMs);
  // An idle server may stop without waiting for the next look.
  quietLooks?.unref();

  const run = async (task: DatabaseTask): Promise<QueryResult> => {
    while (replacing) await replacing;
    if (closed) throw connectionLost('the embedded database has been closed');
    running++;
    try {
      const outcome = await submit(task);
      statements++;
      transactionOpen = outcome.transactionOpen;
      return outcome;
    } finally {
      running--;
    }
  };

  try {
    await run({ kind: 'open' });
  } catch (error) {
    clearInterval(quietLooks);
    await pool.destroy();
    throw error;
  }
  return {
    query: (sql, parameters = []) => run({ kind: 'query', sql, parameters }),
    async close() {
      while (replacing) await replacing;
      if (closed) return;
      clearInterval(quietLooks);
      try {
        await submit({ kind: 'close' });
      } finally {
        closed = true;
        await pool.destroy();
      }
    },
  };
}

function databaseError(fields: Record<string, unknown>): Error {
  const { message, stack, ...rest } = fields;
  const error = Object.assign(new Error(String(message)), rest);
  if (typeof stack === 'string') error.stack = stack;
  return error;
}

/**
 * SQLSTATE 08006 connection_failure: answered with 503 like a PostgreSQL that went away
 * (docs/architecture.md#api-conventions), and the statements after it get a fresh thread.
 */
function connectionLost(reason: string): Error {
  return Object.assign(new Error(`embedded database unavailable: ${reason}`), { code: '08006' });
}
