import { join } from 'node:path';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { RuntimeConfig } from '@vertragsgenerator/domain';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { AuditLog } from './admin/audit-log.js';
import { CountersignatureSettings } from './admin/countersignature-settings.js';
import { ApprovalRulesStore } from './approvals/approval-rules-store.js';
import { issuerDiscovery } from './auth/issuer-discovery.js';
import { SessionsRepository } from './auth/sessions-repository.js';
import { ClausePlacer } from './clauses/clause-choice.js';
import { ClauseMarksInDatabase } from './clauses/clause-marks.js';
import { PublishedClausesInDatabase } from './clauses/published-clauses.js';
import type { Config } from './config/config.js';
import { databasePoolInUse } from './db/database.js';
import { DocumentGenerator } from './documents/document-generator.js';
import { DocumentsRepository } from './documents/documents-repository.js';
import { DocumentGeneration } from './documents/generate-document.js';
import { contentSecurityPolicy } from './http/content-security-policy.js';
import { answerClientError, answerFrameworkError, installErrorHandler } from './http/errors.js';
import { createAuthGuards } from './http/guards.js';
import { installOpenApi } from './http/openapi.js';
import { deleteExpiredPayloads } from './idp/payload-adapter.js';
import { MailOutbox } from './mail/mail-outbox.js';
import { reportsToCrmObserver } from './matches/crm/crm-client.js';
import { RecentMatchesRepository } from './matches/recent-matches.js';
import { ServerLifecycle } from './operations/readiness.js';
import { authRoutes } from './routes/auth.js';
import { documentRoutes } from './routes/documents.js';
import { matchRoutes } from './routes/match.js';
import { operationsRoutes } from './routes/operations.js';
import { signatoryRoutes } from './routes/signatories.js';
import { spaRoutes } from './routes/spa.js';
import { storedDocumentRoutes } from './routes/stored-documents.js';
import { systemRoutes } from './routes/system.js';
import { templateLibraryRoutes } from './routes/template-library.js';
import { templateMarkRoutes } from './routes/template-marks.js';
import { templateVersionRoutes } from './routes/template-versions.js';
import { TOKEN_EXCHANGE_PATH, tokenExchangeRoutes } from './routes/token-exchange.js';
import { usersRoutes } from './routes/users.js';
import {
  HOUSEKEEPING_INTERVAL_MS,
  OUTBOX_INTERVAL_MS,
  scheduleBackgroundJobs,
} from './shared/background-jobs.js';
import { richestDemoMatch } from './templates/samples.js';
import { TemplateMarksStore } from './templates/template-marks.js';
import { seedTemplates } from './templates/template-seed.js';
import { createTemplateUsage } from './templates/template-usage.js';
import { TemplateVersions } from './templates/template-versions.js';
import { UsersRepository } from './users/users-repository.js';
import { registerAdministration } from './wiring/administration.js';
import { createApiClientAccess, registerApiClients } from './wiring/api-clients.js';
import type { AppContext, AppDependencies } from './wiring/app-context.js';
import { createApprovals, registerApprovals } from './wiring/approvals.js';
import { registerBatches } from './wiring/batches.js';
import { registerClauses } from './wiring/clauses.js';
import { createContracts } from './wiring/contracts.js';
import { createCrmWriteback } from './wiring/crm-writeback.js';
import { createIntegrations } from './wiring/integrations.js';
import { registerPrivacy } from './wiring/privacy.js';
import { registerReviews } from './wiring/reviews.js';
import { registerSignature } from './wiring/signature.js';

/** Never written to logs: credentials and session cookies. */
export const LOG_REDACTIONS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'body.token',
  'body.password',
];

export function loggerOptions(config: Config) {
  return { level: config.logLevel, redact: { paths: LOG_REDACTIONS, censor: '[redacted]' } };
}

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;

/**
 * The routes' schemas describe the API and validate nothing (useSchemasAsDescription in
 * http/openapi.ts): Fastify's own compilers, ajv and fast-json-stringify, are never used, and with
 * these factories not even loaded at start. Their types are ajv's, whose functions these stand in for.
 */
const DESCRIPTION_ONLY_COMPILERS: CompilersFactory = {
  buildValidator: (() => () => () => true) as unknown as CompilersFactory['buildValidator'],
  buildSerializer: (() => () => (data: unknown) =>
    JSON.stringify(data)) as CompilersFactory['buildSerializer'],
};

/** Builds the HTTP server from given dependencies; main.ts and the tests are its only callers. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, db } = deps;
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 500 },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    schemaController: { compilersFactory: DESCRIPTION_ONLY_COMPILERS },
  });
  installErrorHandler(app);
  // Only with a scraper to read them: otherwise nothing is counted, and prom-client is not loaded.
  const { metricsToken } = config.operations;
  const metrics = metricsToken
    ? new (await import('./operations/metrics.js')).Metrics({
        db,
        renderQueueDepth: () => deps.renderer.pending(),
        databasePoolInUse: () => databasePoolInUse(db),
      })
    : undefined;
  metrics?.instrument(app);
  if (metrics && reportsToCrmObserver(deps.matches)) deps.matches.observe(metrics);
  const lifecycle = new ServerLifecycle();
  app.addHook('onReady', async () => {
    lifecycle.phase = 'serving';
  });
  app.addHook('preClose', async () => {
    lifecycle.phase = 'draining';
  });
  // An answer sent while draining ends its connection: a client's keep-alive connection would otherwise
  // hold the stop open until it times out (Fastify keeps them 72 s).
  app.addHook('onSend', async (_request, reply, payload) => {
    if (lifecycle.phase === 'draining') reply.header('connection', 'close');
    return payload;
  });

  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    // No COOP: the sign-in popup returns from the provider (another origin in production) to
    // /auth/callback, and any COOP value there would sever `window.opener`, failing the popup flow.
    crossOriginOpenerPolicy: false,
    strictTransportSecurity: config.publicUrl.startsWith('https:'),
  });
  await app.register(rateLimit, { global: false });

  const users = new UsersRepository(db);
  const sessions = new SessionsRepository(db);
  const audit = new AuditLog(db);
  const apiClients = createApiClientAccess(app, { db, config, audit });
  const guards = createAuthGuards({
    verifier: deps.tokenVerifier,
    sessions,
    administrators: config.admin.administrators,
    apiClients: apiClients.gate,
  });
  const signInRateLimit = { max: config.rateLimitPerMinute, timeWindow: '1 minute' };
  await installOpenApi(app, { version: config.version, guards });

  await app.register(systemRoutes, { db, runtimeConfig: runtimeConfig(config) });
  await app.register(operationsRoutes, {
    db,
    renderer: deps.renderer,
    lifecycle,
    ...(metrics && metricsToken ? { metrics: { collected: metrics, token: metricsToken } } : {}),
  });
  await app.register(authRoutes, {
    guards,
    sessions,
    users,
    rateLimit: signInRateLimit,
    administrators: config.admin.administrators,
    approver: (user) => new ApprovalRulesStore(db, audit).mayApprove(user),
  });
  const { clientSecret } = config.oidc;
  if (clientSecret) {
    await app.register(tokenExchangeRoutes, {
      exchange: {
        discover: deps.discoverIssuer ?? issuerDiscovery(config.oidc.issuer),
        clientId: config.oidc.clientId,
        clientSecret,
      },
      rateLimit: signInRateLimit,
    });
  }
  await app.register(usersRoutes, { guards, users });
  await app.register(matchRoutes, { guards, matches: deps.matches, recent: new RecentMatchesRepository(db) });
  // Webhooks hear of documents, envelopes and templates from the repositories that record them.
  // The CRM hears of them through the same outbox (a second kind of target).
  const crmWriteback = await createCrmWriteback(deps, app.log);
  const integrations = createIntegrations(deps, crmWriteback.targets);
  // Running contracts hear of completed envelopes beside the webhooks, and tell the webhooks of records.
  const contracts = createContracts(db, integrations.events, deps.companyData);
  const templates = new TemplateVersions(db, audit, contracts.events);
  await seedTemplates(templates, config.templatesDir, app.log);
  const templateUsage = createTemplateUsage();
  const documents = new DocumentsRepository(db, contracts.events);
  const clausePlacer = new ClausePlacer(new PublishedClausesInDatabase(db));
  const generator = new DocumentGenerator(documents, deps.renderer, templates, metrics, clausePlacer);
  const generation = new DocumentGeneration({
    matches: deps.matches,
    companyData: deps.companyData,
    generator,
    templateUsage,
    templates,
    clauses: clausePlacer,
  });
  const outbox = new MailOutbox(db, deps.mailer, config.mail.supportEmail, app.log);
  const context: AppContext = {
    app,
    deps,
    guards,
    audit,
    outbox,
    documents,
    generation,
    metrics,
    signInRateLimit,
    events: contracts.events,
  };
  const countersignatureSettings = new CountersignatureSettings(db, audit);
  // Before the routes it records reads of: its hook sees only routes registered after it.
  const privacy = await registerPrivacy(context);
  const approvals = createApprovals(context);
  // Where the answer is the final file, generation holds back what needs an approval; the built-in
  // editor opens the stored document instead and gates its own download.
  await app.register(documentRoutes, {
    guards,
    generation,
    ...(config.editor === 'builtin' ? {} : { approvalGate: approvals.documentApprovals }),
  });
  const signature = await registerSignature(context, countersignatureSettings, approvals.requests);
  const approvalArea = await registerApprovals(
    context,
    approvals,
    signature.approvedSender,
    signature.countersignature,
  );
  const batchArea = await registerBatches(context, {
    generator,
    templates,
    approvals,
    sender: signature.approvedSender,
    countersignature: signature.countersignature,
  });
  const marks = new TemplateMarksStore(db, audit, new ClauseMarksInDatabase(db));
  const reviewArea = await registerReviews(context, { marks });
  // While a round is out with the counterparty, the text stays as sent: the editor may not save.
  await app.register(storedDocumentRoutes, {
    guards,
    documents,
    editable: (documentId) => reviewArea.reviews.assertEditable(documentId),
  });
  await app.register(signatoryRoutes, { guards, signatories: deps.companyData.signatories });
  // The demo match with the most values: the placeholders' examples and the default deal to try on.
  const exampleMatch = () => richestDemoMatch(join(config.configDir, 'demo-matches.json'));
  await app.register(templateLibraryRoutes, { guards, companyData: deps.companyData, exampleMatch });
  await app.register(templateMarkRoutes, { guards, marks });
  await app.register(templateVersionRoutes, {
    guards,
    templates,
    trial: {
      renderer: deps.renderer,
      usage: templateUsage,
      companyData: deps.companyData,
      clauses: clausePlacer,
    },
    matches: deps.matches,
    exampleMatch,
  });
  await registerClauses(context, { matches: deps.matches, exampleMatch });
  app.addHook('onClose', async () => {
    await deps.renderer.close();
  });
  await registerAdministration(context, countersignatureSettings);
  const contractArea = await contracts.register(context);
  const integrationArea = await integrations.register(context);
  const crmWritebackArea = crmWriteback.start();
  await registerApiClients(context, apiClients);
  if (deps.idp) await app.register(deps.idp.routes);
  await app.register(spaRoutes, { webDistDir: config.webDistDir });
  // A timer that fires meanwhile starts a run that ends at once: no mail is leased once the stop began.
  // The areas' work stops first: what it finishes queues mail, which the outbox may still take.
  for (const stop of [...approvalArea.stop, ...signature.stop, ...batchArea.stop])
    app.addHook('onClose', async () => stop());
  for (const stop of privacy.stop) app.addHook('onClose', async () => stop());
  // Before the mail outbox: a given-up delivery queues mail to the administrators.
  for (const stop of [...integrationArea.stop, ...crmWritebackArea.stop])
    app.addHook('onClose', async () => stop());
  app.addHook('onClose', () => outbox.stop());
  if (deps.periodicJobs ?? true)
    scheduleBackgroundJobs(app, [
      ...signature.jobs,
      ...approvalArea.jobs,
      ...privacy.jobs,
      ...integrationArea.jobs,
      ...crmWritebackArea.jobs,
      ...contractArea.jobs,
      ...batchArea.jobs,
      ...reviewArea.jobs,
      { every: OUTBOX_INTERVAL_MS, run: () => outbox.deliverDue() },
      { every: HOUSEKEEPING_INTERVAL_MS, run: () => sessions.deleteExpired(new Date()) },
      { every: HOUSEKEEPING_INTERVAL_MS, run: () => deleteExpiredPayloads(db) },
    ]);
  return app;
}

export function runtimeConfig(config: Config): RuntimeConfig {
  return {
    version: config.version,
    oidc: {
      authority: config.oidc.issuer,
      clientId: config.oidc.clientId,
      providerName: config.oidc.providerName,
      scope: config.oidc.scope,
      ...(config.oidc.clientSecret ? { tokenEndpoint: TOKEN_EXCHANGE_PATH } : {}),
    },
    editor: config.editor,
    googleDriveApiUrl: config.googleDriveApiUrl,
    signature: config.signature.kind,
  };
}
