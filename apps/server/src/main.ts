import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { SessionsRepository } from './auth/sessions-repository.js';
import { createTokenVerifier, remoteIssuerKeys } from './auth/token-verifier.js';
import { ConfigError, loadConfig } from './config.js';
import { migrate, openDatabase } from './db/database.js';
import { IdpAccounts } from './idp/accounts.js';
import { createEmbeddedIdp } from './idp/embedded-idp.js';
import { deleteExpiredPayloads } from './idp/payload-adapter.js';
import { seedDemoUsers } from './seed.js';
import { UsersRepository } from './users/users-repository.js';

/** Composition root: configuration → adapters → app → listen. The only place that picks implementations. */
async function main(): Promise<void> {
  const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const config = loadConfig(process.env, version);

  const db = await openDatabase(config.database);
  await migrate(db);

  const users = new UsersRepository(db);
  const accounts = config.oidc.externalIssuer ? undefined : new IdpAccounts(db);
  if (config.demoData) await seedDemoUsers(join(config.configDir, 'demo-users.json'), users, accounts);

  const rateLimit = { max: config.rateLimitPerMinute, timeWindow: '1 minute' };
  const idp = accounts
    ? await createEmbeddedIdp({
        db,
        accounts,
        issuer: config.oidc.issuer,
        publicUrl: config.publicUrl,
        clientId: config.oidc.clientId,
        trustProxy: config.trustProxy,
        rateLimit,
      })
    : undefined;
  const tokenVerifier = createTokenVerifier({
    issuer: config.oidc.issuer,
    audience: config.oidc.clientId,
    keys: idp?.keys ?? remoteIssuerKeys(config.oidc.issuer),
    emailClaim: config.oidc.emailClaim,
  });

  const app = await buildApp({ config, db, tokenVerifier, idp });

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
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('Vertragsgenerator could not start:', error);
  }
  process.exit(1);
});
