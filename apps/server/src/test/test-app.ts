import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { buildApp } from '../app.js';
import type { IssuerMetadata } from '../auth/issuer-discovery.js';
import { SessionsRepository } from '../auth/sessions-repository.js';
import { createTokenVerifier } from '../auth/token-verifier.js';
import { type Env, loadConfig, type SignatureConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import type { PdfRenditions } from '../documents/pdf-rendition.js';
import type { Mailer, MailMessage } from '../mail/mailer.js';
import { DatabaseMatchSource } from '../matches/database-match-source.js';
import type { MatchSource } from '../matches/match-source.js';
import { seedDemoUsers } from '../seed.js';
import type { SignatureProvider } from '../signature/signature-provider.js';
import { type CompanyData, loadCompanyData } from '../templates/companies.js';
import { createRendererPool, type Renderer } from '../templates/renderer.js';
import { UsersRepository } from '../users/users-repository.js';
import type { AppDependencies } from '../wiring/app-context.js';
import { eventually } from './eventually.js';

export const TEST_ISSUER = 'https://idp.test.invalid';
export const TEST_AUDIENCE = 'vertragsgenerator-test';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
const signingKey: Promise<KeyPair> = generateKeyPair('RS256', { extractable: true });
/** A second key the server does not trust: tokens signed with it are forgeries. */
export const foreignKey: Promise<KeyPair> = generateKeyPair('RS256');

export interface TokenClaims {
  email: string;
  name?: string;
  issuer?: string;
  audience?: string;
  /** Seconds relative to now. */
  issuedAt?: number;
  expiresIn?: number;
  key?: KeyPair['privateKey'];
}

/** Signs ID tokens as an identity provider would, with knobs for every way a token can be wrong. */
export async function issueToken(claims: TokenClaims): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: claims.email, name: claims.name ?? claims.email })
    .setProtectedHeader({ alg: 'RS256', kid: 'test' })
    .setSubject(claims.email)
    .setJti(randomUUID()) // as real providers do (nonce, sid, at_hash): two sign-ins never share a token
    .setIssuer(claims.issuer ?? TEST_ISSUER)
    .setAudience(claims.audience ?? TEST_AUDIENCE)
    .setIssuedAt(now + (claims.issuedAt ?? 0))
    .setExpirationTime(now + (claims.issuedAt ?? 0) + (claims.expiresIn ?? 3600))
    .sign(claims.key ?? (await signingKey).privateKey);
}

/** Keeps sent mail for assertions; `failing` makes delivery fail as an unreachable SMTP server would. */
export class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failing = false;
  async send(message: MailMessage) {
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
    this.sent.push(message);
  }

  /** The link token of the signing invitation to `to`, once the outbox (which mails soon, not at once) sent it. */
  signingLink(to: string): Promise<string> {
    return eventually(`a signing link mailed to ${to}`, () =>
      this.sent
        .map((mail) =>
          mail.to === to ? mail.text.match(/\/unterschreiben#([A-Za-z0-9_-]+)/)?.[1] : undefined,
        )
        .find((token) => token !== undefined),
    );
  }

  /** The code mails sent so far to the addresses `to` accepts, oldest first. */
  signingCodeMails(to: string | ((address: string) => boolean)): MailMessage[] {
    const accepts = typeof to === 'string' ? (address: string) => address === to : to;
    return this.sent.filter((mail) => accepts(mail.to) && mail.subject.startsWith('Dein Bestätigungscode'));
  }

  /**
   * The code of the newest code mail to `to`, once the outbox sent more than `after` of them (the
   * mail goes out soon after the answer, not with it).
   */
  signingCode(to: string | ((address: string) => boolean), after = 0): Promise<string> {
    return eventually(
      `a signing code mailed to ${typeof to === 'string' ? to : 'the addresses asked'}`,
      () => {
        const mails = this.signingCodeMails(to);
        return mails.length > after ? codeInMail(mails.at(-1)?.text ?? '') : undefined;
      },
    );
  }
}

/** The six digits on a line of their own in a code mail. */
export function codeInMail(text: string): string | undefined {
  return text.match(/^\s*(\d{6})\s*$/m)?.[1];
}

export interface TestApp {
  app: FastifyInstance;
  /** Keeps the mail the app sends, unless `options.mailer` delivers it instead. */
  mailer: RecordingMailer;
  sessions: SessionsRepository;
  users: UsersRepository;
  /** Issues a token and opens its session, as the SPA does after the sign-in popup. */
  signIn(email: string, name?: string): Promise<string>;
}

export interface TestAppOptions {
  env?: Env;
  logger?: FastifyServerOptions['logger'];
  /** Default: the built-in store on the test database. */
  matches?: MatchSource;
  /** Default: a worker pool on TEMPLATES_DIR (the repository's templates unless `env` names another). */
  renderer?: Renderer;
  /** Replaces the configuration's signature settings (DocuSign needs key files otherwise). */
  signature?: SignatureConfig;
  /** Default: built-in signing. */
  signatureProvider?: SignatureProvider;
  /** Default: sealed with the server's seal. */
  sealEnvelope?: AppDependencies['sealEnvelope'];
  /** Default: a `RecordingMailer`. */
  mailer?: Mailer;
  /** Default: none, so the tests do not depend on LibreOffice being installed. */
  pdfRenditions?: PdfRenditions;
  /** Default: the repository's config/companies.json and config/signatories.json. */
  companyData?: CompanyData;
  /**
   * Seed the staff directory of config/demo-users.json, as a fresh server does: berater (1), legal (2),
   * leitung (3) and neu (no level) @demo.local, plus colleagues.
   */
  demoStaff?: boolean;
  /** Default: discovery of the test issuer, which does not exist; the token exchange tests fake it. */
  discoverIssuer?: () => Promise<IssuerMetadata>;
  /**
   * Default true: the database starts as that of a company whose administrator allowed contracts
   * without a countersignatory, because most tests send a contract as drafted and are about something
   * else. False keeps the product's default (a countersignatory required), as the countersignature's
   * own tests need. A database that already holds the switch keeps it.
   */
  contractsWithoutCountersignature?: boolean;
}

export async function createTestApp(
  db: Db,
  { env = {}, logger = false, ...options }: TestAppOptions = {},
): Promise<TestApp> {
  const publicKey: JWK = { ...(await exportJWK((await signingKey).publicKey)), kid: 'test', alg: 'RS256' };
  // A data folder of its own unless the test gives one, removed when the app closes.
  const ownDataDir = env.DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), 'vg-test-'));
  const config = loadConfig(
    {
      OIDC_ISSUER: TEST_ISSUER,
      OIDC_CLIENT_ID: TEST_AUDIENCE,
      DATA_DIR: ownDataDir,
      WEB_DIST_DIR: join(tmpdir(), 'vg-no-web-build'),
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '100000',
      // The suite runs files in parallel on two cores: one render thread per app is plenty.
      RENDER_THREADS: '1',
      ...env,
    },
    '0.0.0-test',
  );
  if (options.signature) config.signature = options.signature;
  const tokenVerifier = createTokenVerifier({
    issuer: TEST_ISSUER,
    audience: TEST_AUDIENCE,
    keys: createLocalJWKSet({ keys: [publicKey] }),
    emailClaim: 'email',
  });
  const mailer = new RecordingMailer();
  const app = await buildApp({
    config,
    db,
    tokenVerifier,
    mailer: options.mailer ?? mailer,
    matches: options.matches ?? new DatabaseMatchSource(db),
    renderer: options.renderer ?? createRendererPool({ threads: config.renderThreads }),
    companyData: options.companyData ?? (await loadCompanyData(config.configDir)),
    pdfRenditions: options.pdfRenditions ?? NO_PDF_RENDITIONS,
    signatureProvider: options.signatureProvider,
    sealEnvelope: options.sealEnvelope,
    discoverIssuer: options.discoverIssuer,
    logger,
    periodicJobs: false,
  });
  if (ownDataDir) app.addHook('onClose', () => rm(ownDataDir, { recursive: true, force: true }));
  await app.ready();
  if (options.contractsWithoutCountersignature ?? true) await allowContractsWithoutCountersignature(db);
  const users = new UsersRepository(db);
  if (options.demoStaff) await seedDemoUsers(join(config.configDir, 'demo-users.json'), users);
  return {
    app,
    mailer,
    sessions: new SessionsRepository(db),
    users,
    async signIn(email, name) {
      const token = await issueToken({ email, name });
      const response = await app.inject({
        method: 'POST',
        url: '/backend/private/saveUser',
        headers: { authorization: `Bearer ${token}` },
        payload: {},
      });
      if (response.statusCode !== 200) throw new Error(`saveUser answered ${response.statusCode}`);
      return token;
    },
  };
}

const NO_PDF_RENDITIONS: PdfRenditions = { available: async () => false, render: async () => null };

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Every API route of the app (`/backend/…`) as method and path pattern, e.g. `GET /backend/documents/:id`. */
export function apiRoutes(app: FastifyInstance): { method: string; path: string }[] {
  const routes: { method: string; path: string }[] = [];
  // The tree prints nested routes relative to their parent (`└── /document (GET)` under
  // `/backend/signature/envelopes/:id`): the indentation says whose child a line is.
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = line.match(/^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/);
    if (!match?.[2]) continue;
    const depth = (match[1]?.length ?? 0) / 4;
    const path = (parents[depth - 1] ?? '') + match[2];
    parents[depth] = path;
    parents.length = depth + 1;
    if (!path.startsWith('/backend/') || !match[3]) continue;
    for (const method of match[3].split(', ').filter((m) => m !== 'HEAD')) routes.push({ method, path });
  }
  return routes;
}

/** Every API route of the app except the public ones, with sample values for path parameters. */
export function privateRoutes(
  app: FastifyInstance,
  publicPaths: string[],
): { method: string; url: string }[] {
  return apiRoutes(app)
    .filter(({ path }) => !publicPaths.includes(path))
    .map(({ method, path }) => ({ method, url: path.replace(/:[a-zA-Z]+/g, 'berater@demo.local') }));
}

/** The administrators' switch for contracts set to „ohne Gegenzeichnung erlaubt“, unless already set. */
async function allowContractsWithoutCountersignature(db: Db): Promise<void> {
  await db
    .insertInto('countersignature_settings')
    .values({ family: 'contract', without_allowed: true, changed_by: 'Testaufbau', changed_at: new Date() })
    .onConflict((oc) => oc.column('family').doNothing())
    .execute();
}
