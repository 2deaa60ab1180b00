import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { importServer } from './server.mjs';

/**
 * Opens the database a server uses (its DATA_DIR, or DATABASE_URL) while that server is stopped, runs
 * `work` on it and answers what it answers: seeding before a measurement, a run beside none.
 */
export async function withDatabase(dataDir, env, work) {
  const { openDatabase } = await importServer('db/database.js');
  const { loadConfig } = await importServer('config/config.js');
  const target = loadConfig({ DATA_DIR: dataDir, ...env }, 'bench').database;
  const db = await openDatabase(target);
  try {
    return await work(db);
  } finally {
    await db.destroy();
    // The embedded database's claim on its folder ends with this process, which goes on to start the
    // server on it: the claim goes with the database.
    if (target.kind === 'pglite') await rm(join(target.dataDir, 'vertragsgenerator.pid'), { force: true });
  }
}
