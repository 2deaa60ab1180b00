import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * The only reader of process.env (DESIGN §2). Every variable is documented in docs/configuration.md;
 * a wrong value stops the start with a message that names the variable.
 */

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const EDITOR_MODES = ['builtin', 'google', 'download'] as const;
type EditorMode = (typeof EDITOR_MODES)[number];
const isEditorMode = (value: string | undefined): value is EditorMode =>
  EDITOR_MODES.includes(value as EditorMode);

// Object and field names go into SOQL as they are, so only API names pass.
const SALESFORCE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

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
  TRUST_PROXY: booleanFromString.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().min(1).optional(),
  TEMPLATES_DIR: z.string().min(1).optional(),
  RENDER_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  GOOGLE_DRIVE_API_URL: z.string().url().default('https://www.googleapis.com'),
  SIGNING_LINK_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  DOCUSIGN_INTEGRATION_KEY: z.string().min(1).optional(),
  DOCUSIGN_USER_ID: z.string().min(1).optional(),
  DOCUSIGN_ACCOUNT_ID: z.string().min(1).optional(),
  DOCUSIGN_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  DOCUSIGN_AUTH_URL: z.string().url().default('https://account-d.docusign.com'),
  DOCUSIGN_BASE_PATH: z.string().url().optional(),
  DOCUSIGN_CONNECT_HMAC_KEY: z.string().min(16).optional(),
  DOCUSIGN_TEMPLATES_FILE: z.string().min(1).optional(),
  CRM_KIND: z.enum(['http', 'salesforce']).default('http'),
  CRM_URL: z
    .string()
    .refine((url) => url.includes('{matchId}'), 'must contain {matchId} where the match ID goes')
    .refine((url) => URL.canParse(url.replaceAll('{matchId}', 'PL-1')), 'must be a URL')
    .optional(),
  CRM_TOKEN: z.string().min(1).optional(),
  CRM_USER: z.string().min(1).optional(),
  CRM_PASSWORD: z.string().min(1).optional(),
  CRM_MAPPING_FILE: z.string().min(1).optional(),
  CRM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  CRM_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  CRM_CACHE_SECONDS: z.coerce.number().int().min(0).default(0),
  SALESFORCE_LOGIN_URL: z.string().url().optional(),
  SALESFORCE_CLIENT_ID: z.string().min(1).optional(),
  SALESFORCE_CLIENT_SECRET: z.string().min(1).optional(),
  SALESFORCE_OBJECT: z.string().regex(SALESFORCE_NAME, 'must be an API name such as Match__c').optional(),
  SALESFORCE_ID_FIELD: z.string().regex(SALESFORCE_NAME, 'must be a field API name such as Name').optional(),
  SALESFORCE_API_VERSION: z
    .string()
    .regex(/^\d{2,3}\.0$/, 'must be a version such as 62.0')
    .default('62.0'),
});

/** Together these switch e-signatures from built-in signing to DocuSign. */
const DOCUSIGN_REQUIRED = [
  'DOCUSIGN_INTEGRATION_KEY',
  'DOCUSIGN_USER_ID',
  'DOCUSIGN_ACCOUNT_ID',
  'DOCUSIGN_PRIVATE_KEY_FILE',
] as const;

/** Together these switch matches to Salesforce (with `CRM_KIND=salesforce`). */
const SALESFORCE_REQUIRED = [
  'SALESFORCE_LOGIN_URL',
  'SALESFORCE_CLIENT_ID',
  'SALESFORCE_CLIENT_SECRET',
  'SALESFORCE_OBJECT',
  'SALESFORCE_ID_FIELD',
] as const;

/** DocuSign server templates per document key (DOCUSIGN_TEMPLATES_FILE): `{ "de-wm-k-rv-1": "<template id>" }`. */
const docusignTemplatesSchema = z.record(z.string().min(1), z.string().min(1));

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
  /** The DOCX templates legal staff edit (DESIGN §9). */
  templatesDir: string;
  /** Worker threads that render documents. */
  renderThreads: number;
  signature: SignatureConfig;
  /** Undefined: matches come from the built-in store. */
  crm: CrmConfig | undefined;
  /** companies, signatories and demo data (repository folder config/). */
  configDir: string;
  version: string;
}

export type SignatureConfig =
  | { kind: 'builtin'; linkValidDays: number }
  | {
      kind: 'docusign';
      linkValidDays: number;
      integrationKey: string;
      userId: string;
      accountId: string;
      /** PEM of the RSA key whose public half is registered with the integration key. */
      privateKey: string;
      /** OAuth host: https://account-d.docusign.com (developer) or https://account.docusign.com. */
      authUrl: string;
      /** REST base, e.g. https://eu.docusign.net/restapi; unset: the account's base URI from `userinfo`. */
      basePath: string | undefined;
      /** Connect HMAC key; unset: the Connect webhook is refused. */
      connectHmacKey: string | undefined;
      /** Keys sent as a DocuSign server template; all others upload our generated document. */
      templates: Record<string, string>;
    };

/** An external CRM as match source (docs/crm.md). */
export type CrmConfig = {
  /** The field mapping (JSON), checked at start. */
  mappingFile: string;
  /** Deadline of one request to the CRM. */
  timeoutMs: number;
  /** Attempts after the first one on 5xx, network errors and timeouts. */
  retries: number;
  /** How long a stored CRM answer may stand in for an unreachable CRM; 0: nothing is stored. */
  cacheSeconds: number;
} & (
  | {
      kind: 'http';
      /** With `{matchId}` where the URL-encoded ID goes. */
      url: string;
      auth: { kind: 'bearer'; token: string } | { kind: 'basic'; user: string; password: string } | undefined;
    }
  | {
      kind: 'salesforce';
      /** My Domain or login host, e.g. https://example.my.salesforce.com. */
      loginUrl: string;
      clientId: string;
      clientSecret: string;
      /** API name of the object that holds matches, e.g. `Match__c`. */
      object: string;
      /** API name of its field with the match ID `PL-…` (an auto-number field, often `Name`). */
      idField: string;
      /** REST API version without `v`, e.g. `62.0`. */
      apiVersion: string;
    }
);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const REPOSITORY_CONFIG_DIR = new URL('../../../config', import.meta.url).pathname;
const REPOSITORY_TEMPLATES_DIR = new URL('../../../templates', import.meta.url).pathname;
export const EMBEDDED_IDP_PATH = '/idp';
const EMBEDDED_CLIENT_ID = 'vertragsgenerator';

/**
 * One thread per core, and at least three. The event loop mostly waits (database, network) while
 * documents render, so it needs no core of its own; and with only one or two render threads, every
 * queued document waits whenever the operating system pauses one of them: on 2 cores, DOCX generation
 * at 10 connections had a p99 of 440–540 ms with one thread, 100–115 ms with two, 89–95 ms with three
 * (PostgreSQL; docs/performance.md).
 */
export function defaultRenderThreads(cores: number): number {
  return Math.max(3, cores);
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
    webDistDir: resolve(e.WEB_DIST_DIR ?? new URL('../../web/dist', import.meta.url).pathname),
    templatesDir: resolve(e.TEMPLATES_DIR ?? REPOSITORY_TEMPLATES_DIR),
    renderThreads: e.RENDER_THREADS ?? defaultRenderThreads(availableParallelism()),
    signature,
    crm,
    configDir: REPOSITORY_CONFIG_DIR,
    version,
  };
}

/** SPEC §4: with Google Docs as editor, sign-in also asks for Drive access (file access, read-only). */
export const DRIVE_SCOPES = [
  'https://www.googleapis.com/auth/drive.file',
  'https://www.googleapis.com/auth/drive.readonly',
];

function withDriveScopes(scope: string, editor: EditorMode): string {
  if (editor !== 'google') return scope;
  const scopes = scope.split(/\s+/).filter(Boolean);
  return [...scopes, ...DRIVE_SCOPES.filter((s) => !scopes.includes(s))].join(' ');
}

function signatureConfig(e: z.infer<typeof envSchema>): SignatureConfig {
  const given = DOCUSIGN_REQUIRED.filter((name) => e[name]);
  if (given.length === 0) return { kind: 'builtin', linkValidDays: e.SIGNING_LINK_DAYS };
  const missing = DOCUSIGN_REQUIRED.filter((name) => !e[name]);
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  ${missing.map((name) => `${name}: required with ${given.join(', ')}`).join('\n  ')}`,
    );
  }
  const privateKey = readConfigFile('DOCUSIGN_PRIVATE_KEY_FILE', e.DOCUSIGN_PRIVATE_KEY_FILE as string);
  if (!privateKey.includes('PRIVATE KEY-----')) {
    throw new ConfigError('Invalid configuration:\n  DOCUSIGN_PRIVATE_KEY_FILE: not a PEM private key');
  }
  let templates: Record<string, string> = {};
  if (e.DOCUSIGN_TEMPLATES_FILE) {
    const text = readConfigFile('DOCUSIGN_TEMPLATES_FILE', e.DOCUSIGN_TEMPLATES_FILE);
    let parsed: z.ZodSafeParseResult<Record<string, string>>;
    try {
      parsed = docusignTemplatesSchema.safeParse(JSON.parse(text));
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  DOCUSIGN_TEMPLATES_FILE: ${(error as Error).message}`);
    }
    if (!parsed.success) {
      throw new ConfigError(
        'Invalid configuration:\n  DOCUSIGN_TEMPLATES_FILE: expected a JSON object of document key to template id',
      );
    }
    templates = parsed.data;
  }
  return {
    kind: 'docusign',
    linkValidDays: e.SIGNING_LINK_DAYS,
    integrationKey: e.DOCUSIGN_INTEGRATION_KEY as string,
    userId: e.DOCUSIGN_USER_ID as string,
    accountId: e.DOCUSIGN_ACCOUNT_ID as string,
    privateKey,
    authUrl: e.DOCUSIGN_AUTH_URL.replace(/\/+$/, ''),
    basePath: e.DOCUSIGN_BASE_PATH?.replace(/\/+$/, ''),
    connectHmacKey: e.DOCUSIGN_CONNECT_HMAC_KEY,
    templates,
  };
}

function crmConfig(e: z.infer<typeof envSchema>): CrmConfig | undefined {
  const problems: string[] = [];
  const common = {
    timeoutMs: e.CRM_TIMEOUT_MS,
    retries: e.CRM_RETRIES,
    cacheSeconds: e.CRM_CACHE_SECONDS,
  };
  if (e.CRM_KIND === 'salesforce') {
    for (const name of SALESFORCE_REQUIRED) {
      if (!e[name]) problems.push(`${name}: required with CRM_KIND=salesforce`);
    }
    if (e.CRM_URL)
      problems.push('CRM_URL: not used with CRM_KIND=salesforce (SALESFORCE_LOGIN_URL names the org)');
    if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    return {
      kind: 'salesforce',
      ...common,
      mappingFile: resolve(e.CRM_MAPPING_FILE ?? join(REPOSITORY_CONFIG_DIR, 'crm-mapping.salesforce.json')),
      loginUrl: (e.SALESFORCE_LOGIN_URL as string).replace(/\/+$/, ''),
      clientId: e.SALESFORCE_CLIENT_ID as string,
      clientSecret: e.SALESFORCE_CLIENT_SECRET as string,
      object: e.SALESFORCE_OBJECT as string,
      idField: e.SALESFORCE_ID_FIELD as string,
      apiVersion: e.SALESFORCE_API_VERSION,
    };
  }
  if (!e.CRM_URL) {
    // A CRM variable without CRM_URL is a half-done setup: the start says so instead of ignoring it.
    const strays = [
      'CRM_TOKEN',
      'CRM_USER',
      'CRM_PASSWORD',
      'CRM_MAPPING_FILE',
      ...SALESFORCE_REQUIRED,
    ] as const;
    const given = strays.filter((name) => e[name]);
    if (given.length > 0) {
      throw new ConfigError(
        `Invalid configuration:\n  ${given.map((name) => `${name}: needs CRM_URL or CRM_KIND=salesforce`).join('\n  ')}`,
      );
    }
    return undefined;
  }
  if (!e.CRM_MAPPING_FILE) problems.push('CRM_MAPPING_FILE: required with CRM_URL');
  if (e.CRM_TOKEN && (e.CRM_USER || e.CRM_PASSWORD)) {
    problems.push('CRM_TOKEN: set either CRM_TOKEN (bearer) or CRM_USER and CRM_PASSWORD (basic), not both');
  }
  if (Boolean(e.CRM_USER) !== Boolean(e.CRM_PASSWORD)) {
    problems.push(
      `${e.CRM_USER ? 'CRM_PASSWORD' : 'CRM_USER'}: required with ${e.CRM_USER ? 'CRM_USER' : 'CRM_PASSWORD'}`,
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return {
    kind: 'http',
    ...common,
    mappingFile: resolve(e.CRM_MAPPING_FILE as string),
    url: e.CRM_URL,
    auth: e.CRM_TOKEN
      ? { kind: 'bearer', token: e.CRM_TOKEN }
      : e.CRM_USER && e.CRM_PASSWORD
        ? { kind: 'basic', user: e.CRM_USER, password: e.CRM_PASSWORD }
        : undefined,
  };
}

function readConfigFile(variable: string, path: string): string {
  try {
    return readFileSync(resolve(path), 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  ${variable}: cannot read ${path} (${(error as Error).message})`,
    );
  }
}

/** An empty variable (`FOO=`) means "not set", as operators expect from shell and compose files. */
function emptyToUndefined(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
}
