import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../config.js';
import { DatabaseInUseError, type Db, migrate, openDatabase } from '../db/database.js';

/**
 * Opens the database the server would use (same variables, same migrations) for a command-line tool,
 * and closes it afterwards. Configuration errors end the tool with their message.
 */
export async function withDatabase(work: (db: Db) => Promise<number>): Promise<number> {
  const { version } = JSON.parse(
    readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  };
  let db: Db | undefined;
  try {
    const config = loadConfig(process.env, version);
    db = await openDatabase(config.database);
    await migrate(db);
    return await work(db);
  } catch (error) {
    console.error(
      error instanceof ConfigError || error instanceof DatabaseInUseError ? error.message : error,
    );
    return 1;
  } finally {
    await db?.destroy();
  }
}
