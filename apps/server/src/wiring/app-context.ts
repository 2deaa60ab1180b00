import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { IssuerMetadata } from '../auth/issuer-discovery.js';
import type { TokenVerifier } from '../auth/token-verifier.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { DocumentsRepository } from '../documents/documents-repository.js';
import type { DocumentGeneration } from '../documents/generate-document.js';
import type { PdfRenditions } from '../documents/pdf-rendition.js';
import type { AuthGuards } from '../http/guards.js';
import type { EmbeddedIdp } from '../idp/embedded-idp.js';
import type { MailOutbox } from '../mail/mail-outbox.js';
import type { Mailer } from '../mail/mailer.js';
import type { MatchSource } from '../matches/match-source.js';
import type { Metrics } from '../operations/metrics.js';
import type { BackgroundJob } from '../shared/background-jobs.js';
import type { EventSink } from '../shared/product-events.js';
import type { EnvelopeSealerDeps } from '../signature/seal/envelope-sealer.js';
import type { SignatureProvider } from '../signature/signature-provider.js';
import type { CompanyData } from '../templates/companies.js';
import type { Renderer } from '../templates/renderer.js';

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
  /**
   * Default true: the areas' periodic work (mail, seals, reminders, deliveries) runs on timers. The
   * test app turns them off: its tests run that work themselves, as another replica would, and a timer
   * that fired between a test's setup and its own run would take the work from it.
   */
  periodicJobs?: boolean;
}

/** What every area of the app is wired with: the instance, its dependencies and the services they share. */
export interface AppContext {
  app: FastifyInstance;
  deps: AppDependencies;
  guards: AuthGuards;
  audit: AuditLog;
  outbox: MailOutbox;
  documents: DocumentsRepository;
  generation: DocumentGeneration;
  metrics: Metrics | undefined;
  /** The limit of routes a stranger can call: sign-in, access requests, signing links. */
  signInRateLimit: { max: number; timeWindow: string };
  /** Told of the product's events in the transactions that record them (wiring/integrations.ts). */
  events?: EventSink<Kysely<Database>>;
}

/** What an area leaves running: its periodic jobs, and how to stop them before the mail outbox stops. */
export interface AreaRunning {
  jobs: BackgroundJob[];
  stop: (() => Promise<void> | void)[];
}
