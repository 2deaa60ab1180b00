import run, { type DatabaseOutcome, type DatabaseTask } from '../db/pglite-worker.js';

/** A comment in a statement that makes the database thread die, as a WebAssembly abort would. */
export const CRASH_MARKER = '/* database thread crash */';

/** The real database thread, dying on the marker above. */
export default async function faultyDatabase(task: DatabaseTask): Promise<DatabaseOutcome> {
  if (task.kind === 'query' && task.sql.includes(CRASH_MARKER)) process.exit(1);
  return run(task);
}
