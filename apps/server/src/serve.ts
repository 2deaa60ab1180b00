import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, loadProcessConfig } from './config/config.js';
import { DatabaseInUseError, migrate, openDatabase } from './db/database.js';
import { warnOfMissingMemorySettings } from './operations/memory-settings.js';
import type { BundleState } from './server-bundle.js';
import { SealCertificateError } from './signature/seal/seal-certificate-error.js';

/**
 * The server's run: configuration → database → app → listen, and a clean shutdown. main.ts starts it
 * from the bundle or from the compiled modules (server-bundle.ts); `bundle` says which, for the log.
 */
export async function serve({ bundle }: { bundle: BundleState }): Promise<void> {
  const config = loadProcessConfig();

  // The database opens first (PGlite's thread compiles its WebAssembly and starts PostgreSQL, or the
  // first connection to PostgreSQL) and the app's modules load meanwhile: a restart waits for the
  // longer of the two, not for both. The modules are imported only now, so that nothing of them is
  // compiled before the database thread has started.
  // The app's logger exists only once the database is open; a replacement of the database's thread
  // comes thousands of statements later, when it does.
  let log: FastifyBaseLogger | undefined;
  const opening = openDatabase(config.database, {
    createMigrated: true,
    onThreadReplaced: (replaced) => log?.info(replaced, 'the embedded database moved to a fresh thread'),
  });
  // A loading that fails while the database opens is reported once the opening is awaited.
  opening.catch(() => {});
  const composing = import('./compose.js');
  composing.catch(() => {});
  const db = await opening;
  await migrate(db);
  const { composeApp } = await composing;
  const app = await composeApp(config, db);
  log = app.log;
  if (bundle === 'outdated') {
    app.log.warn('the server bundle is older than the compiled modules: running the modules (npm run build)');
  }
  warnOfMissingMemorySettings(app.log);

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

/** Errors whose message says what to fix: printed alone, without a stack. */
export function isExplained(error: unknown): boolean {
  return (
    error instanceof ConfigError ||
    error instanceof DatabaseInUseError ||
    error instanceof SealCertificateError
  );
}
