import { readFileSync } from 'node:fs';
import { composeApp } from './compose.js';
import { ConfigError, loadConfig } from './config.js';
import { DatabaseInUseError, migrate, openDatabase } from './db/database.js';

/** Entry point: configuration → database → app → listen, and a clean shutdown. */
async function main(): Promise<void> {
  const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const config = loadConfig(process.env, version);

  const db = await openDatabase(config.database);
  await migrate(db);
  const app = await composeApp(config, db);

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Vertragsgenerator ${version} läuft auf ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof DatabaseInUseError ? error.message : error);
  process.exit(1);
});
