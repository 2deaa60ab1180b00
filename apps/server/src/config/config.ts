import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ADMIN_ENV, type AdminConfig, adminConfig } from './admin.js';
import { CRM_ENV, type CrmConfig, crmConfig } from './crm.js';
import { OPERATIONS_ENV, type OperationsConfig, operationsConfig } from './operations.js';
import { SEAL_ENV, type SealConfig, sealConfig } from './seal.js';
import { SIGNATURE_ENV, type SignatureConfig, signatureConfig } from './signature.js';
import { booleanFromString, ConfigError, REPOSITORY_CONFIG_DIR } from './support.js';
import { WEBHOOK_ENV, type WebhookConfig, webhookConfig } from './webhooks.js';

export type { CrmConfig } from './crm.js';
export type { SignatureConfig } from './signature.js';
export { ConfigError } from './support.js';

/**
 * The only reader of process.env: the rest of the server gets its settings as a typed Config, so what it
 * may be told is listed in one place. Every variable is documented in docs/configuration.md; a wrong
 * value stops the start with a message that names the variable.
 */

const EDITOR_MODES = ['builtin', 'google', 'download'] as const;
type EditorMode = (typeof EDITOR_MODES)[number];
const isEditorMode = (value: string | undefined): value is EditorMode =>
  EDITOR_MODES.includes(value as EditorMode);

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_PROVIDER_NAME: z.string().min(1).optional(),
  OIDC_SCOPES: z.string().min(1).default('openid email profile'),
  OIDC_EMAIL_CLAIM: z.string().min(1).default('email'),
  DEMO_DATA: booleanFromString.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  SUPPORT_EMAIL: z.string().email().default('support@demo.local'),
  MAIL_FROM: z.string().min(3).default('Vertragsgenerator <noreply@demo.local>'),
  DOCUMENT_EDITOR: z.enum(EDITOR_MODES).optional(),
  EDITOR: z.string().optional(),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(1024 * 1024),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Invitations of a batch's envelopes mailed per minute, so that the mail server does not throttle. */
  BATCH_INVITATIONS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(60),
  TRUST_PROXY: booleanFromString.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().min(1).optional(),
  TEMPLATES_DIR: z.string().min(1).optional(),
  RENDER_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  GOOGLE_DRIVE_API_URL: z.string().url().default('https://www.googleapis.com'),
  ...SIGNATURE_ENV,
  ...SEAL_ENV,
  ...CRM_ENV,
  ...ADMIN_ENV,
  ...OPERATIONS_ENV,
  ...WEBHOOK_ENV,
});

export type Env = Record<string, string | undefined>;

/** Every environment variable the server reads (docs/configuration.md documents each). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; poolSize: number };
  oidc: {
    /** Undefined: the embedded identity provider at /idp is the issuer. */
    externalIssuer: string | undefined;
    issuer: string;
    clientId: string;
    /** Set for issuers that want it at the token endpoint (Google): the server completes the exchange. */
    clientSecret: string | undefined;
    providerName: string;
    scope: string;
    emailClaim: string;
  };
  demoData: boolean;
  editor: EditorMode;
  /** Google's API host for `EDITOR=google` (Drive v3 under /drive/v3, uploads under /upload/drive/v3). */
  googleDriveApiUrl: string;
  mail: { smtpUrl: string | undefined; directory: string; from: string; supportEmail: string };
  bodyLimitBytes: number;
  rateLimitPerMinute: number;
  trustProxy: boolean;
  logLevel: string;
  webDistDir: string;
  /** The DOCX template files: version 1 of each template in the library, and what `templates:lint` checks. */
  templatesDir: string;
  /** Worker threads that render documents. */
  renderThreads: number;
  signature: SignatureConfig;
  /** The seal's certificate and timestamp authorities. */
  seal: SealConfig;
  admin: AdminConfig;
  operations: OperationsConfig;
  /** Serien: the pace of a batch's invitations (BATCH_INVITATIONS_PER_MINUTE). */
  batches: { invitationsPerMinute: number };
  webhooks: WebhookConfig;
  /** Undefined: matches come from the built-in store. */
  crm: CrmConfig | undefined;
  /** companies, signatories and demo data (repository folder config/). */
  configDir: string;
  version: string;
}

const REPOSITORY_TEMPLATES_DIR = new URL('../../../../templates', import.meta.url).pathname;
export const EMBEDDED_IDP_PATH = '/idp';
const EMBEDDED_CLIENT_ID = 'vertragsgenerator';

/**
 * One thread per two cores, at least one. The threads only lay out shapes of data not seen before
 * (templates/document-layout.ts); every other document is filled in the server's thread, so the
 * threads rest most of a day, and each one started holds 25–35 MiB. (When every document was rendered
 * in a thread, three were needed on 2 cores for a DOCX p99 under 100 ms at 10 connections.) A burst of
 * new shapes, as after a template is published, waits a few milliseconds per shape for one thread.
 */
export function defaultRenderThreads(cores: number): number {
  return Math.max(1, Math.floor(cores / 2));
}

/** The configuration of this process: its environment, and the product version from package.json. */
export function loadProcessConfig(): Config {
  const { version } = JSON.parse(
    readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return loadConfig(process.env, version);
}

/**
 * The folder a command-line tool was called from: npm runs scripts in the repository folder and names
 * the caller's folder in INIT_CWD; called directly, it is the working folder.
 */
export function callersFolder(): string {
  return process.env.INIT_CWD ?? process.cwd();
}

export function loadConfig(env: Env, version: string): Config {
  const parsed = envSchema.safeParse(emptyToUndefined(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.OIDC_ISSUER && !e.OIDC_CLIENT_ID) {
    throw new ConfigError('Invalid configuration:\n  OIDC_CLIENT_ID: required when OIDC_ISSUER is set');
  }
  if (e.OIDC_CLIENT_SECRET && !e.OIDC_ISSUER) {
    throw new ConfigError(
      'Invalid configuration:\n  OIDC_CLIENT_SECRET: only for an external issuer (OIDC_ISSUER); the embedded one needs none',
    );
  }
  const signature = signatureConfig(e);
  const crm = crmConfig(e);
  // `EDITOR` is also the Unix convention for a text editor (npm sets it to `vi` for every script):
  // only our three values count there; DOCUMENT_EDITOR is the unambiguous, strictly checked name.
  const editor = e.DOCUMENT_EDITOR ?? (isEditorMode(e.EDITOR) ? e.EDITOR : 'builtin');
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const dataDir = resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: resolve(dataDir, 'pglite') },
    oidc: {
      externalIssuer: e.OIDC_ISSUER,
      issuer: e.OIDC_ISSUER ?? `${publicUrl}${EMBEDDED_IDP_PATH}`,
      clientId: e.OIDC_CLIENT_ID ?? EMBEDDED_CLIENT_ID,
      clientSecret: e.OIDC_CLIENT_SECRET,
      providerName: e.OIDC_PROVIDER_NAME ?? (e.OIDC_ISSUER ? new URL(e.OIDC_ISSUER).hostname : 'Demo-SSO'),
      scope: withDriveScopes(e.OIDC_SCOPES, editor),
      emailClaim: e.OIDC_EMAIL_CLAIM,
    },
    demoData: e.DEMO_DATA ?? !e.OIDC_ISSUER,
    editor,
    googleDriveApiUrl: e.GOOGLE_DRIVE_API_URL.replace(/\/+$/, ''),
    mail: {
      smtpUrl: e.SMTP_URL,
      directory: resolve(dataDir, 'mail'),
      from: e.MAIL_FROM,
      supportEmail: e.SUPPORT_EMAIL,
    },
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    webDistDir: resolve(e.WEB_DIST_DIR ?? new URL('../../../web/dist', import.meta.url).pathname),
    templatesDir: resolve(e.TEMPLATES_DIR ?? REPOSITORY_TEMPLATES_DIR),
    renderThreads: e.RENDER_THREADS ?? defaultRenderThreads(availableParallelism()),
    signature,
    admin: adminConfig(e),
    operations: operationsConfig(e),
    batches: { invitationsPerMinute: e.BATCH_INVITATIONS_PER_MINUTE },
    webhooks: webhookConfig(e),
    seal: sealConfig(e),
    crm,
    configDir: REPOSITORY_CONFIG_DIR,
    version,
  };
}

/** With Google Docs as editor, sign-in also asks for Drive access (file access, read-only). */
export const DRIVE_SCOPES = [
  'https://www.googleapis.com/auth/drive.file',
  'https://www.googleapis.com/auth/drive.readonly',
];

function withDriveScopes(scope: string, editor: EditorMode): string {
  if (editor !== 'google') return scope;
  const scopes = scope.split(/\s+/).filter(Boolean);
  return [...scopes, ...DRIVE_SCOPES.filter((s) => !scopes.includes(s))].join(' ');
}
/** An empty variable (`FOO=`) means "not set", as operators expect from shell and compose files. */
function emptyToUndefined(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
}
