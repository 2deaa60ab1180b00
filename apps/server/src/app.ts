import { join } from 'node:path';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { RuntimeConfig } from '@vertragsgenerator/domain';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { AccessRequests } from './admin/access-requests.js';
import { AuditLog } from './admin/audit-log.js';
import { CountersignatureSettings } from './admin/countersignature-settings.js';
import { MatchFileImport } from './admin/match-file-import.js';
import { StaffAdministration } from './admin/staff-administration.js';
import { type IssuerMetadata, issuerDiscovery } from './auth/issuer-discovery.js';
import { SessionsRepository } from './auth/sessions-repository.js';
import type { TokenVerifier } from './auth/token-verifier.js';
import type { Config } from './config/config.js';
import { type Db, databasePoolInUse } from './db/database.js';
import { DocumentGenerator } from './documents/document-generator.js';
import { DocumentsRepository } from './documents/documents-repository.js';
import { DocumentGeneration } from './documents/generate-document.js';
import { createPdfRenditions, type PdfRenditions } from './documents/pdf-rendition.js';
import { answerClientError, answerFrameworkError, installErrorHandler } from './http/errors.js';
import { createAuthGuards } from './http/guards.js';
import { installOpenApi } from './http/openapi.js';
import type { EmbeddedIdp } from './idp/embedded-idp.js';
import { deleteExpiredPayloads } from './idp/payload-adapter.js';
import { MailOutbox } from './mail/mail-outbox.js';
import type { Mailer } from './mail/mailer.js';
import type { MatchSource } from './matches/match-source.js';
import { MatchStore } from './matches/match-store.js';
import { RecentMatchesRepository } from './matches/recent-matches.js';
import { Metrics } from './operations/metrics.js';
import { ServerLifecycle } from './operations/readiness.js';
import { accessRequestRoutes } from './routes/access-requests.js';
import { administrationRoutes } from './routes/administration.js';
import { authRoutes } from './routes/auth.js';
import { countersignatureSettingsRoutes } from './routes/countersignature-settings.js';
import { documentRoutes } from './routes/documents.js';
import { docusignConnectRoutes } from './routes/docusign-connect.js';
import { generateEnvelopeRoutes } from './routes/generate-envelope.js';
import { matchRoutes } from './routes/match.js';
import { matchImportRoutes } from './routes/match-import.js';
import { operationsRoutes } from './routes/operations.js';
import { sealCheckRoutes } from './routes/seal-check.js';
import { signatoryRoutes } from './routes/signatories.js';
import { signatureRoutes } from './routes/signature.js';
import { signatureOverviewRoutes } from './routes/signature-overview.js';
import { signingRoutes } from './routes/signing.js';
import { spaRoutes } from './routes/spa.js';
import { storedDocumentRoutes } from './routes/stored-documents.js';
import { supportRoutes } from './routes/support.js';
import { systemRoutes } from './routes/system.js';
import { templateLibraryRoutes } from './routes/template-library.js';
import { templateVersionRoutes } from './routes/template-versions.js';
import { TOKEN_EXCHANGE_PATH, tokenExchangeRoutes } from './routes/token-exchange.js';
import { usersRoutes } from './routes/users.js';
import { BuiltinSigning } from './signature/builtin-signing.js';
import { renderCertificate } from './signature/certificate.js';
import { Countersignature } from './signature/countersignature.js';
import { EnvelopeCreation } from './signature/create-envelope.js';
import { EnvelopesRepository } from './signature/envelopes-repository.js';
import { EnvelopeOverviewQuery } from './signature/overview/envelope-overview.js';
import { SigningReminders } from './signature/reminders/signing-reminders.js';
import { EnvelopeSealer, type EnvelopeSealerDeps } from './signature/seal/envelope-sealer.js';
import { SealRenewal } from './signature/seal/seal-renewal.js';
import { loadSeal } from './signature/seal/seal-store.js';
import { sealedEnvelopePdf } from './signature/seal/sealed-envelope-pdf.js';
import { SealedPdfCheck } from './signature/seal/sealed-pdf-check.js';
import { TimestampAuthorities } from './signature/seal/timestamp-authority.js';
import type { SignatureProvider } from './signature/signature-provider.js';
import { loadSigningLinkKey, SigningLinks } from './signature/signing-links.js';
import { SupportReports } from './support/support-reports.js';
import type { CompanyData } from './templates/companies.js';
import type { Renderer } from './templates/renderer.js';
import { richestDemoMatch } from './templates/samples.js';
import { seedTemplates } from './templates/template-seed.js';
import { createTemplateUsage } from './templates/template-usage.js';
import { TemplateVersions } from './templates/template-versions.js';
import { UsersRepository } from './users/users-repository.js';

export interface AppDependencies {
  config: Config;
  db: Db;
  tokenVerifier: TokenVerifier;
  mailer: Mailer;
  matches: MatchSource;
  /** Renders documents; the app closes it when it closes. */
  renderer: Renderer;
  companyData: CompanyData;
  /** DocuSign when configured; default: built-in signing. */
  signatureProvider?: SignatureProvider;
  /** PDF renditions for the signing pages; default: LibreOffice if installed. */
  pdfRenditions?: PdfRenditions;
  /** Makes a completed envelope's sealed PDF; default: with the server's seal (tests make it fail). */
  sealEnvelope?: EnvelopeSealerDeps['seal'];
  /** Present when the embedded identity provider serves /idp. */
  idp?: EmbeddedIdp;
  /** The external issuer's discovery document; default: fetched from `config.oidc.issuer` when needed. */
  discoverIssuer?: () => Promise<IssuerMetadata>;
  /** Fastify logger options; default: pino at the configured level, credentials redacted. */
  logger?: FastifyServerOptions['logger'];
}

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
  });
  installErrorHandler(app);
  // Only with a scraper to read them: otherwise nothing is counted.
  const { metricsToken } = config.operations;
  const metrics = metricsToken
    ? new Metrics({
        db,
        renderQueueDepth: () => deps.renderer.pending(),
        databasePoolInUse: () => databasePoolInUse(db),
      })
    : undefined;
  metrics?.instrument(app);
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
  const guards = createAuthGuards({
    verifier: deps.tokenVerifier,
    sessions,
    administrators: config.admin.administrators,
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
  const audit = new AuditLog(db);
  const templates = new TemplateVersions(db, audit);
  await seedTemplates(templates, config.templatesDir, app.log);
  const templateUsage = createTemplateUsage();
  const documents = new DocumentsRepository(db);
  const generator = new DocumentGenerator(documents, deps.renderer, templates, metrics);
  const generation = new DocumentGeneration({
    matches: deps.matches,
    companyData: deps.companyData,
    generator,
    templateUsage,
    templates,
  });
  await app.register(documentRoutes, { guards, generation });
  const outbox = new MailOutbox(db, deps.mailer, config.mail.supportEmail, app.log);
  const envelopes = new EnvelopesRepository(db);
  const seal = await loadSeal(db, {
    configured: config.seal.certificate,
    commonName: `Vertragsgenerator-Siegel ${new URL(config.publicUrl).host}`,
  });
  const timestamping = config.seal.timestamps && {
    authorities: new TimestampAuthorities(config.seal.timestamps),
    renewDaysBefore: config.seal.renewDaysBefore,
  };
  const sealRenewal = new SealRenewal({ db, timestamping, log: app.log });
  const pdfRenditions = deps.pdfRenditions ?? createPdfRenditions();
  const sealer = new EnvelopeSealer({
    db,
    envelopes,
    outbox,
    log: app.log,
    providerDocument: deps.signatureProvider?.completedDocument?.bind(deps.signatureProvider),
    renderContract: (docx) => pdfRenditions.render(docx),
    seal:
      deps.sealEnvelope ??
      ((envelope, sealedAt) =>
        sealedEnvelopePdf(envelope, { seal, publicUrl: config.publicUrl, sealedAt, timestamping })),
  });
  const countersignatureSettings = new CountersignatureSettings(db, audit);
  const countersignature = new Countersignature({
    companyData: deps.companyData,
    withoutAllowed: (family, executor) => countersignatureSettings.withoutAllowed(family, executor),
  });
  const signingLinkKey = await loadSigningLinkKey(db);
  const links = new SigningLinks({
    envelopes,
    publicUrl: config.publicUrl,
    linkValidDays: config.signature.linkValidDays,
    reminderEveryDays: config.signature.reminderEveryDays,
    key: signingLinkKey,
    now: () => new Date(),
  });
  const builtinSigning = new BuiltinSigning({
    db,
    envelopes,
    outbox,
    publicUrl: config.publicUrl,
    links,
    renderCertificate,
    sealer,
    signerCode: config.signature.kind === 'builtin' ? config.signature.signerCode : 'off',
    codeKey: signingLinkKey,
    countersignature,
  });
  const reminders = new SigningReminders({
    db,
    envelopes,
    outbox,
    links,
    reminderEveryDays: config.signature.reminderEveryDays,
  });
  // With DocuSign, the sender view and signing happen there: our signing pages stay closed.
  const signing = deps.signatureProvider ? undefined : builtinSigning;
  await app.register(generateEnvelopeRoutes, {
    guards,
    envelopeCreation: new EnvelopeCreation({
      generation,
      envelopes,
      provider: deps.signatureProvider ?? builtinSigning,
      publicUrl: config.publicUrl,
      countersignature,
    }),
  });
  await app.register(signatureRoutes, {
    guards,
    documents,
    envelopes,
    signing,
    reminders: signing && reminders,
    pdf: pdfRenditions,
    countersignature,
  });
  await app.register(sealCheckRoutes, {
    guards,
    check: new SealedPdfCheck({ db, currentSeal: seal.fingerprint }),
  });
  await app.register(signatureOverviewRoutes, {
    guards,
    overview: new EnvelopeOverviewQuery(db),
    builtinSigning: signing !== undefined,
  });
  await app.register(signingRoutes, { signing, pdf: pdfRenditions, rateLimit: signInRateLimit });
  await app.register(storedDocumentRoutes, { guards, documents });
  if (config.signature.kind === 'docusign') {
    await app.register(docusignConnectRoutes, {
      hmacKey: config.signature.connectHmacKey,
      envelopes,
      onCompleted: () => sealer.sealSoon(),
    });
  }
  await app.register(signatoryRoutes, { guards, signatories: deps.companyData.signatories });
  // The demo match with the most values: the placeholders' examples and the default deal to try on.
  const exampleMatch = () => richestDemoMatch(join(config.configDir, 'demo-matches.json'));
  await app.register(templateLibraryRoutes, { guards, companyData: deps.companyData, exampleMatch });
  await app.register(templateVersionRoutes, {
    guards,
    templates,
    trial: { renderer: deps.renderer, usage: templateUsage, companyData: deps.companyData },
    matches: deps.matches,
    exampleMatch,
  });
  app.addHook('onClose', async () => {
    await deps.renderer.close();
  });
  const requests = new AccessRequests({
    db,
    audit,
    outbox,
    publicUrl: config.publicUrl,
    configuredAdministrators: config.admin.administrators,
    ...(config.admin.accessRequestEmail ? { notify: config.admin.accessRequestEmail } : {}),
  });
  await app.register(accessRequestRoutes, { guards, requests, rateLimit: signInRateLimit });
  await app.register(administrationRoutes, {
    guards,
    requests,
    staff: new StaffAdministration(db, audit, config.admin.administrators),
    audit,
  });
  await app.register(countersignatureSettingsRoutes, { guards, settings: countersignatureSettings });
  await app.register(matchImportRoutes, { guards, imports: new MatchFileImport(new MatchStore(db), audit) });
  await app.register(supportRoutes, {
    guards,
    reports: new SupportReports(db, outbox),
    rateLimit: signInRateLimit,
  });
  if (deps.idp) await app.register(deps.idp.routes);
  await app.register(spaRoutes, { webDistDir: config.webDistDir });
  // A timer that fires meanwhile starts a run that ends at once: no mail is leased once the stop began.
  // The sealer first: a seal it finishes queues mail, which the outbox may still take.
  app.addHook('onClose', () => sealer.stop());
  app.addHook('onClose', () => sealRenewal.stop());
  app.addHook('onClose', () => reminders.stop());
  app.addHook('onClose', () => outbox.stop());
  scheduleBackgroundJobs(app, [
    { every: OUTBOX_INTERVAL_MS, run: () => sealer.sealDue() },
    { every: OUTBOX_INTERVAL_MS, run: () => reminders.sendDue() },
    { every: OUTBOX_INTERVAL_MS, run: () => outbox.deliverDue() },
    { every: HOUSEKEEPING_INTERVAL_MS, run: () => sessions.deleteExpired(new Date()) },
    { every: HOUSEKEEPING_INTERVAL_MS, run: () => deleteExpiredPayloads(db) },
    { every: HOUSEKEEPING_INTERVAL_MS, run: () => sealRenewal.renewDue() },
  ]);
  return app;
}

const OUTBOX_INTERVAL_MS = 30_000;
const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;

/** Periodic work runs while the server is up: queued mail goes out, expired sign-in state is dropped. */
function scheduleBackgroundJobs(
  app: FastifyInstance,
  jobs: { every: number; run: () => Promise<unknown> }[],
) {
  const timers: NodeJS.Timeout[] = [];
  app.addHook('onReady', async () => {
    for (const job of jobs) {
      const timer = setInterval(() => {
        job.run().catch((error) => app.log.warn({ err: error }, 'background job failed'));
      }, job.every);
      timer.unref();
      timers.push(timer);
    }
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
  });
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

/** Strict enough that no injected script runs; loose enough for Mantine's inline styles and sign-in. */
function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const issuerOrigin = config.oidc.externalIssuer ? new URL(config.oidc.externalIssuer).origin : undefined;
  const external = issuerOrigin ? [issuerOrigin] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    // External providers keep their token endpoint on other hosts (Google: oauth2.googleapis.com);
    // with Google Docs as editor the browser uploads to Drive itself.
    connectSrc: [
      "'self'",
      ...(issuerOrigin ? ['https:'] : []),
      ...(config.editor === 'google' ? [new URL(config.googleDriveApiUrl).origin] : []),
    ],
    // blob: frames and workers: the signing pages show a document fetched with credentials as a blob.
    frameSrc: ["'self'", 'blob:', ...external],
    workerSrc: ["'self'", 'blob:'],
    formAction: ["'self'", ...external],
    frameAncestors: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    ...(config.publicUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
  };
}
