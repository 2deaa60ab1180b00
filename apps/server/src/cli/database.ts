import { type Db, migrate, openDatabase } from '../db/database.js';
import { loadCliConfig, runTool } from './config.js';

/**
 * Opens the database the server would use (same variables, same migrations) for a command-line tool,
 * and closes it afterwards. Configuration errors end the tool with their message.
 */
export async function withDatabase(work: (db: Db) => Promise<number>): Promise<number> {
  return runTool(async () => {
    const db = await openDatabase(loadCliConfig().database);
    try {
      await migrate(db);
      return await work(db);
    } finally {
      await db.destroy();
    }
  });
}
