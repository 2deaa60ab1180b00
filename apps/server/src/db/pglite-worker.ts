import { workerData } from 'piscina';
import { openPGlite, type PGliteQueries } from './pglite.js';

/**
 * Runs the embedded database in a worker thread (see pglite-thread.ts): PGlite executes its queries
 * synchronously in WebAssembly, and on the server's own thread that work delays every other request.
 */

export type DatabaseTask =
  | { kind: 'open' }
  | { kind: 'query'; sql: string; parameters: unknown[] }
  | { kind: 'close' };

/**
 * Errors come back as a value: what crosses the thread boundary as an exception loses its own
 * properties, and the SQLSTATE `code` and PostgreSQL's other error fields are what the server reads.
 */
export type DatabaseOutcome =
  | { ok: true; rows: unknown[]; affectedRows?: number; transactionOpen: boolean }
  | { ok: false; error: Record<string, unknown> };

export interface DatabaseThreadData {
  dataDir: string | undefined;
}

// Opened with the thread's first task: a thread that replaces a crashed one opens the same files again.
let database: Promise<PGliteQueries> | undefined;

export default async function run(task: DatabaseTask): Promise<DatabaseOutcome> {
  try {
    // A failed opening is tried again with the next task.
    database ??= openPGlite((workerData as DatabaseThreadData).dataDir).catch((error: unknown) => {
      database = undefined;
      throw error;
    });
    const pglite = await database;
    switch (task.kind) {
      case 'open':
        return { ok: true, rows: [], transactionOpen: false };
      case 'query': {
        const { rows, affectedRows, transactionOpen } = await pglite.query(task.sql, task.parameters);
        return { ok: true, rows, affectedRows, transactionOpen };
      }
      case 'close':
        await pglite.close();
        return { ok: true, rows: [], transactionOpen: false };
    }
  } catch (error) {
    return { ok: false, error: plainError(error) };
  }
}

function plainError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value !== undefined && typeof value !== 'function') fields[key] = value;
  }
  return { ...fields, name: error.name, message: error.message, stack: error.stack };
}
