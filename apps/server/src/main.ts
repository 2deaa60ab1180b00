import { ConfigError, loadProcessConfig } from './config/config.js';
import { DatabaseInUseError, migrate, openDatabase } from './db/database.js';
import { SealCertificateError } from './signature/seal/seal-certificate.js';

/** Entry point: configuration → database → app → listen, and a clean shutdown. */
async function main(): Promise<void> {
  const config = loadProcessConfig();

  // The app's modules load while the database opens (PGlite in its own thread, or PostgreSQL's
  // connection): a restart waits for the longer of the two, not for both.
  const composing = import('./compose.js');
  // An opening that fails first is reported as such, not as a loading that was left unwatched.
  composing.catch(() => {});
  const db = await openDatabase(config.database);
  await migrate(db);
  const { composeApp } = await composing;
  const app = await composeApp(config, db);

  /**
   * A stop (SIGTERM from the orchestrator, Ctrl-C): new connections are refused and requests on open
   * ones answered 503, the requests in flight (generations, signing steps) finish, mail runs give their
   * leases back, then the database closes. Bounded: what has not finished by then is cut off.
   */
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down: finishing the requests in flight');
    const { shutdownTimeoutMs } = config.operations;
    setTimeout(() => {
      app.log.error(`not stopped within ${shutdownTimeoutMs / 1000} s: exiting with requests unfinished`);
      process.exit(1);
    }, shutdownTimeoutMs).unref();
    await app.close();
    await db.destroy();
    app.log.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Vertragsgenerator ${config.version} läuft auf ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  const explained =
    error instanceof ConfigError ||
    error instanceof DatabaseInUseError ||
    error instanceof SealCertificateError;
  console.error(explained ? error.message : error);
  process.exit(1);
});
