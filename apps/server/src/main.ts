import { readFileSync } from 'node:fs';
import { SessionsRepository } from './auth/sessions-repository.js';
import { composeApp } from './compose.js';
import { ConfigError, loadConfig } from './config.js';
import { DatabaseInUseError, migrate, openDatabase } from './db/database.js';
import { deleteExpiredPayloads } from './idp/payload-adapter.js';

/** Entry point: configuration → database → app → listen, plus hourly housekeeping and clean shutdown. */
async function main(): Promise<void> {
  const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const config = loadConfig(process.env, version);

  const db = await openDatabase(config.database);
  await migrate(db);
  const app = await composeApp(config, db);

  const sessions = new SessionsRepository(db);
  const housekeeping = setInterval(() => {
    const now = new Date();
    Promise.all([sessions.deleteExpired(now), deleteExpiredPayloads(db, now)]).catch((error) =>
      app.log.warn({ err: error }, 'housekeeping failed'),
    );
  }, 60 * 60_000);
  housekeeping.unref();

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    clearInterval(housekeeping);
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
