import { join } from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from './app.js';
import { issuerDiscovery } from './auth/issuer-discovery.js';
import { createTokenVerifier, remoteIssuerKeys } from './auth/token-verifier.js';
import { backupIfDue } from './backup/scheduled-backups.js';
import { writeServedEmbeddedBackup } from './backup/served-embedded-backup.js';
import { backupTool } from './cli/backup.js';
import { type CommandServer, commandSocketPath, serveCommands } from './cli/command-socket.js';
import { matchesImportTool } from './cli/matches-import.js';
import { storedTemplatesLintTool, storedTemplatesPreviewTool } from './cli/templates-stored.js';
import type { ToolContext } from './cli/tool.js';
import { usersTool } from './cli/users.js';
import type { Config } from './config/config.js';
import type { BackupSchedule } from './config/operations.js';
import type { Db } from './db/database.js';
import { IdpAccounts } from './idp/accounts.js';
import type { Mailer } from './mail/mailer.js';
import { DatabaseMatchSource } from './matches/database-match-source.js';
import { seedDemoMatches } from './matches/demo.js';
import { MatchStore } from './matches/match-store.js';
import { seedDemoUsers } from './seed.js';
import { loadOnce } from './shared/load-once.js';
import { loadCompanyData } from './templates/companies.js';
import { createRendererPool } from './templates/renderer.js';
import { UsersRepository } from './users/users-repository.js';

/**
 * Picks the adapters the configuration names and builds the app from them: the embedded identity
 * provider or an external issuer, demo data or none. main.ts and the end-to-end API tests share it.
 */
export async function composeApp(
  config: Config,
  db: Db,
  logger?: FastifyServerOptions['logger'],
): Promise<FastifyInstance> {
  const companyData = await loadCompanyData(config.configDir);
  const users = new UsersRepository(db);
  const accounts = config.oidc.externalIssuer ? undefined : new IdpAccounts(db);
  // Loaded only when used: production with an external issuer never loads oidc-provider. Its loading
  // starts before the demo data, whose statements leave the main thread waiting for the database.
  const embeddedIdp = accounts ? import('./idp/embedded-idp.js') : undefined;
  embeddedIdp?.catch(() => {});
  if (config.demoData) {
    await seedDemoUsers(join(config.configDir, 'demo-users.json'), users, accounts);
    // With a CRM the built-in store is not asked: demo matches there would only mislead.
    if (!config.crm) await seedDemoMatches(join(config.configDir, 'demo-matches.json'), new MatchStore(db));
  }

  const idp =
    accounts && embeddedIdp
      ? await (await embeddedIdp).createEmbeddedIdp({
          db,
          accounts,
          issuer: config.oidc.issuer,
          publicUrl: config.publicUrl,
          clientId: config.oidc.clientId,
          trustProxy: config.trustProxy,
          rateLimit: { max: config.rateLimitPerMinute, timeWindow: '1 minute' },
        })
      : undefined;
  // Lazy: nothing is fetched unless an external issuer's keys or token endpoint are needed.
  const discoverIssuer = issuerDiscovery(config.oidc.issuer);
  const tokenVerifier = createTokenVerifier({
    issuer: config.oidc.issuer,
    audience: config.oidc.clientId,
    keys: idp?.keys ?? remoteIssuerKeys(discoverIssuer),
    emailClaim: config.oidc.emailClaim,
  });
  const { smtpUrl, directory, from } = config.mail;
  const mailer = mailerOnFirstSend(async () =>
    smtpUrl
      ? (await import('./mail/smtp-mailer.js')).createSmtpMailer(smtpUrl, from)
      : (await import('./mail/file-mailer.js')).createFileMailer(directory, from),
  );
  const matches = config.crm
    ? await (await import('./matches/crm/crm-match-source.js')).createCrmMatchSource(config.crm, db)
    : new DatabaseMatchSource(db);
  const renderer = createRendererPool({ threads: config.renderThreads });
  const signatureProvider =
    config.signature.kind === 'docusign'
      ? (await import('./signature/docusign/docusign-provider.js')).createDocusignProvider(config.signature)
      : undefined; // built-in signing, made by buildApp from the database and the mail outbox
  const app = await buildApp({
    config,
    db,
    tokenVerifier,
    idp,
    discoverIssuer,
    mailer,
    matches,
    renderer,
    companyData,
    signatureProvider,
    logger,
  });
  if (config.database.kind === 'pglite' && config.operations.backups) {
    const { dataDir } = config.database;
    scheduleBackups(app, config.operations.backups, (file) =>
      writeServedEmbeddedBackup(db, dataDir, file, config.version),
    );
  } else if (config.operations.backups) {
    app.log.warn('BACKUP_DIR is for the embedded database; back PostgreSQL up with its own tools');
  }
  if (config.database.kind === 'pglite') {
    serveCommandLineTools(app, config.dataDir, {
      db,
      administrators: config.admin.administrators,
      productVersion: config.version,
      databaseKind: 'pglite',
      servedDataDir: config.database.dataDir,
      configDir: config.configDir,
    });
  }
  return app;
}

/** nodemailer (half a megabyte of code) loads with the first mail sent, not at start. */
function mailerOnFirstSend(create: () => Promise<Mailer>): Mailer {
  const mailer = loadOnce(create);
  return { send: async (message) => (await mailer()).send(message) };
}

/** The embedded database is this process's alone: its command-line tools hand their work to it. */
function serveCommandLineTools(
  app: FastifyInstance,
  dataDir: string,
  context: Omit<ToolContext, 'actor' | 'readText'>,
) {
  let commands: CommandServer | undefined;
  app.addHook('onReady', async () => {
    try {
      commands = await serveCommands({
        path: commandSocketPath(dataDir),
        tools: [
          usersTool,
          matchesImportTool,
          backupTool,
          storedTemplatesLintTool,
          storedTemplatesPreviewTool,
        ],
        context,
        log: app.log,
      });
    } catch (error) {
      // The product works without it; only the tools then ask to stop the server first.
      app.log.warn({ err: error }, 'command-line tools cannot reach this server');
    }
  });
  app.addHook('onClose', async () => {
    await commands?.close();
  });
}

/** How often the server looks whether a scheduled backup is due: the interval itself is hours. */
const BACKUP_CHECK_INTERVAL_MS = 10 * 60_000;

/** Scheduled backups of the embedded database (BACKUP_DIR): checked at start and every ten minutes. */
function scheduleBackups(
  app: FastifyInstance,
  schedule: BackupSchedule,
  write: (file: string) => Promise<unknown>,
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const check = () => {
    running = backupIfDue(write, schedule).then(
      (file) => file && app.log.info({ file }, 'scheduled backup written'),
      (error: unknown) =>
        app.log.error({ err: error }, 'scheduled backup failed; the previous ones are kept'),
    );
  };
  app.addHook('onReady', async () => {
    check();
    timer = setInterval(check, BACKUP_CHECK_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    // A backup under way finishes: the database closes after the app.
    await running;
  });
}
