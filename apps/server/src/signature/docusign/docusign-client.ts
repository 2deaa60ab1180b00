import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { z } from 'zod';
import { ConfigError, type SignatureConfig } from '../../config/config.js';
import { looksLikePdf } from '../../documents/pdf-file.js';
import { SignatureProviderError } from '../signature-provider.js';

/**
 * The HTTP client of DocuSign's eSignature REST API v2.1 with OAuth JWT grant: we act as the
 * configured user ("impersonation"), who gave the integration key their consent once. It owns
 * everything that makes a call dependable: the cached access token, the account's base URI, time
 * limits, retries, and German messages for DocuSign's refusals.
 */

export type DocusignConfig = Extract<SignatureConfig, { kind: 'docusign' }>;

export interface DocusignClientOptions {
  /** Time limit of one HTTP exchange, body included; default 15 s. */
  timeoutMs?: number;
  /** The waits before each retry of a call that failed for a passing reason; their number is the number of retries. */
  retryDelaysMs?: readonly number[];
  /** The longest `Retry-After` we wait for: a user is waiting. DocuSign asking for longer ends the retries. */
  maxRetryAfterMs?: number;
  /** Tests pass one that does not wait. */
  sleep?: (ms: number) => Promise<void>;
}

export interface DocusignClient {
  /**
   * POSTs to a path of the account (`/envelopes` → `…/v2.1/accounts/{accountId}/envelopes`) and
   * answers DocuSign's JSON as `schema` describes it. `idempotent: false` for calls that create
   * something: they are never repeated when DocuSign may already have carried them out.
   */
  post<T>(path: string, body: unknown, schema: z.ZodType<T>, options: { idempotent: boolean }): Promise<T>;
  /** GETs a PDF of the account (a document, the combined document), retried like any idempotent call. */
  getPdf(path: string): Promise<Buffer>;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_RETRY_DELAYS_MS = [500, 1_000, 2_000];
const DEFAULT_MAX_RETRY_AFTER_MS = 5_000;
/** DocuSign accepts assertions valid for at most one hour. */
const ASSERTION_LIFETIME_S = 3_600;
/** A cached token is renewed this long before it expires, so no call starts with a token about to lapse. */
const TOKEN_RENEWAL_MARGIN_MS = 5 * 60_000;

const UNREACHABLE = 'DocuSign ist gerade nicht erreichbar. Bitte versuche es in einem Moment erneut.';
const NOT_AUTHORISED =
  'Die DocuSign-Anbindung ist nicht freigegeben: Die Zustimmung (Consent) für die Integration fehlt oder ' +
  'wurde zurückgezogen. Bitte wende dich an die Administration.';
const OUTCOME_UNKNOWN =
  'DocuSign hat nicht rechtzeitig geantwortet. Der Umschlag wurde dort möglicherweise trotzdem angelegt: ' +
  'Bitte prüfe in DocuSign unter „Entwürfe“, bevor du es erneut versuchst.';
const UNEXPECTED = 'DocuSign hat unerwartet geantwortet. Bitte versuche es erneut oder melde das Problem.';
const RATE_LIMITED =
  'DocuSign nimmt gerade keine weiteren Anfragen an (Anfragelimit erreicht). Bitte versuche es in ein paar Minuten erneut.';

/** German messages for DocuSign's error codes a user can act on (or should pass on). */
const REFUSALS: Record<string, (docusignMessage: string) => string> = {
  INVALID_EMAIL_ADDRESS_FOR_RECIPIENT: (message) =>
    `DocuSign lehnt eine E-Mail-Adresse eines Empfängers ab: ${message}`,
  ANCHOR_TAB_STRING_NOT_FOUND: (message) =>
    `DocuSign findet im Dokument die Stelle für eine Unterschrift nicht (${message}). Bitte melde das Problem: ` +
    'Die Vorlage muss die Anker der Unterschriftsblöcke enthalten.',
  TEMPLATE_ID_INVALID: () =>
    'Die DocuSign-Vorlage für dieses Dokument gibt es nicht (mehr). Bitte wende dich an die Administration.',
  USER_AUTHENTICATION_FAILED: () => NOT_AUTHORISED,
  AUTHORIZATION_INVALID_TOKEN: () => NOT_AUTHORISED,
  ACCOUNT_LACKS_PERMISSIONS: (message) =>
    `Dem DocuSign-Konto fehlt dafür eine Berechtigung (${message}). Bitte wende dich an die Administration.`,
  USER_LACKS_PERMISSIONS: (message) =>
    `Dem DocuSign-Benutzer der Integration fehlt dafür eine Berechtigung (${message}). Bitte wende dich an die Administration.`,
  ENVELOPE_DOES_NOT_EXIST: () =>
    'Den Umschlag gibt es bei DocuSign nicht mehr. Er wurde dort wohl gelöscht; bitte lege ihn neu an.',
};

/**
 * DocuSign may answer its hourly and burst limits with 400 and one of these codes instead of 429.
 * Seconds of backoff do not lift them, so no retry here; the user may try again later.
 */
const RATE_LIMIT_CODES = new Set([
  'HOURLY_APIINVOCATION_LIMIT_EXCEEDED',
  'BURST_APIINVOCATION_LIMIT_EXCEEDED',
]);

/**
 * Connection errors that happen before a single byte of the request left: the request cannot have
 * been carried out, so even a call that creates something may be repeated.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const tokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });
const userinfoSchema = z.object({
  accounts: z.array(z.object({ account_id: z.string(), base_uri: z.string().url() })),
});
const docusignErrorSchema = z.object({ errorCode: z.string().optional(), message: z.string().optional() });
const oauthErrorSchema = z.object({ error: z.string() });

/** One finished HTTP exchange: status and the body, read within the time limit. */
interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body as received: a PDF is no text. */
  bytes: Buffer;
  /** The body parsed as JSON; undefined when it is none. */
  json: unknown;
}

export function createDocusignClient(
  config: DocusignConfig,
  options: DocusignClientOptions = {},
): DocusignClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const signingKey = rsaPrivateKey(config.privateKey);
  // The JWT audience is the bare host of the OAuth service, e.g. `account-d.docusign.com`.
  const audience = new URL(config.authUrl).host;
  const accountPath = `/v2.1/accounts/${encodeURIComponent(config.accountId)}`;

  let token: { value: string; renewAt: number } | undefined;
  /** Concurrent calls without a valid token share one token request. */
  let pendingToken: Promise<string> | undefined;
  let accountBase: string | undefined = config.basePath ? `${config.basePath}${accountPath}` : undefined;

  /**
   * One HTTP exchange with retries for passing failures: 429, 5xx, network errors and timeouts.
   * A call that is not idempotent is repeated only when DocuSign surely did not carry it out: it
   * answered 429 or an error of its own (5xx), or the connection failed before the request left.
   * DocuSign has no idempotency key, so after a timeout, a dropped connection or a 504 (a proxy
   * that gave up waiting) the envelope may exist: a second try could create a duplicate, and the
   * user is told to look in DocuSign instead.
   */
  async function exchange(url: string, init: RequestInit, idempotent: boolean): Promise<Answer> {
    const label = `${init.method ?? 'GET'} ${new URL(url).pathname}`;
    for (let attempt = 0; ; attempt++) {
      const backoff = retryDelays[attempt];
      let answer: Answer;
      try {
        answer = await fetchAnswer(url, init, timeoutMs);
      } catch (error) {
        const detail = `${label}: ${describeError(error)}`;
        if (!idempotent && !failedBeforeSending(error)) {
          throw new SignatureProviderError(OUTCOME_UNKNOWN, false, detail);
        }
        if (backoff === undefined) throw new SignatureProviderError(UNREACHABLE, true, detail);
        await sleep(backoff);
        continue;
      }
      if (answer.status !== 429 && answer.status < 500) return answer;
      const detail = `${label}: HTTP ${answer.status} ${answer.text.slice(0, 500)}`;
      if (!idempotent && answer.status === 504) {
        throw new SignatureProviderError(OUTCOME_UNKNOWN, false, detail);
      }
      const wait = retryAfterMs(answer.headers) ?? backoff;
      if (backoff === undefined || wait === undefined || wait > maxRetryAfterMs) {
        throw new SignatureProviderError(UNREACHABLE, true, detail);
      }
      await sleep(wait);
    }
  }

  async function accessToken(): Promise<string> {
    if (token && Date.now() < token.renewAt) return token.value;
    pendingToken ??= requestToken().finally(() => {
      pendingToken = undefined;
    });
    return pendingToken;
  }

  async function requestToken(): Promise<string> {
    const assertion = await new SignJWT({ scope: 'signature impersonation' })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(config.integrationKey)
      .setSubject(config.userId)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(`${ASSERTION_LIFETIME_S}s`)
      .sign(signingKey);
    const form = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion,
    });
    const answer = await exchange(`${config.authUrl}/oauth/token`, { method: 'POST', body: form }, true);
    if (answer.status !== 200) throw tokenRefusal(answer);
    const parsed = tokenSchema.safeParse(answer.json);
    if (!parsed.success) {
      throw new SignatureProviderError(UNEXPECTED, false, `token: ${answer.text.slice(0, 200)}`);
    }
    const { access_token, expires_in } = parsed.data;
    token = { value: access_token, renewAt: Date.now() + expires_in * 1000 - TOKEN_RENEWAL_MARGIN_MS };
    return access_token;
  }

  /**
   * A call with the cached token; when DocuSign refuses it (401: revoked or expired early), once more
   * with a fresh one. A second 401 is an answer: the integration is not authorised.
   */
  async function authorised(call: (bearer: string) => Promise<Answer>): Promise<Answer> {
    const answer = await call(await accessToken());
    if (answer.status !== 401) return answer;
    token = undefined;
    return call(await accessToken());
  }

  const withBearer = (bearer: string) => ({ Authorization: `Bearer ${bearer}`, Accept: 'application/json' });

  /** `…/restapi/v2.1/accounts/{accountId}` of the configured account, from `userinfo` unless configured. */
  async function accountBaseUrl(): Promise<string> {
    if (accountBase) return accountBase;
    const answer = await authorised((bearer) =>
      exchange(`${config.authUrl}/oauth/userinfo`, { headers: withBearer(bearer) }, true),
    );
    if (answer.status !== 200) throw restRefusal(answer);
    const parsed = userinfoSchema.safeParse(answer.json);
    if (!parsed.success) {
      throw new SignatureProviderError(UNEXPECTED, false, `userinfo: ${answer.text.slice(0, 200)}`);
    }
    const account = parsed.data.accounts.find((candidate) => candidate.account_id === config.accountId);
    if (!account) {
      throw new SignatureProviderError(
        'Der DocuSign-Benutzer der Integration gehört nicht zum eingestellten DocuSign-Konto ' +
          '(DOCUSIGN_ACCOUNT_ID). Bitte wende dich an die Administration.',
        false,
        `userinfo lists accounts ${parsed.data.accounts.map((a) => a.account_id).join(', ')}`,
      );
    }
    accountBase = `${account.base_uri.replace(/\/+$/, '')}/restapi${accountPath}`;
    return accountBase;
  }

  return {
    async post(path, body, schema, { idempotent }) {
      const url = `${await accountBaseUrl()}${path}`;
      const answer = await authorised((bearer) =>
        exchange(
          url,
          {
            method: 'POST',
            headers: { ...withBearer(bearer), 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          },
          idempotent,
        ),
      );
      if (answer.status < 200 || answer.status > 299) throw restRefusal(answer);
      const parsed = schema.safeParse(answer.json);
      if (!parsed.success) {
        throw new SignatureProviderError(UNEXPECTED, false, `POST ${path}: ${answer.text.slice(0, 200)}`);
      }
      return parsed.data;
    },
    async getPdf(path) {
      const url = `${await accountBaseUrl()}${path}`;
      const answer = await authorised((bearer) =>
        exchange(url, { headers: { ...withBearer(bearer), Accept: 'application/pdf' } }, true),
      );
      if (answer.status < 200 || answer.status > 299) throw restRefusal(answer);
      if (!looksLikePdf(answer.bytes)) {
        throw new SignatureProviderError(
          UNEXPECTED,
          false,
          `GET ${path}: no PDF (${answer.text.slice(0, 200)})`,
        );
      }
      return answer.bytes;
    },
  };
}

/** DocuSign hands out PKCS#1 PEMs (`BEGIN RSA PRIVATE KEY`); node:crypto reads those and PKCS#8 alike. */
function rsaPrivateKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  DOCUSIGN_PRIVATE_KEY_FILE: not a readable private key (${(error as Error).message})`,
    );
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new ConfigError('Invalid configuration:\n  DOCUSIGN_PRIVATE_KEY_FILE: DocuSign needs an RSA key');
  }
  return key;
}

async function fetchAnswer(url: string, init: RequestInit, timeoutMs: number): Promise<Answer> {
  // One signal for the whole exchange: a body that trickles in counts against the same limit.
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, bytes, json };
}

function failedBeforeSending(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[] } } | null)?.cause;
  const codes = [cause?.code, ...(cause?.errors ?? []).map((e) => e.code)];
  return codes.some((code) => typeof code === 'string' && NOT_SENT_CODES.has(code));
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : `${error.name}: ${error.message}`;
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from now. */
function retryAfterMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The OAuth service refused the JWT grant: nothing a retry or the user could change. */
function tokenRefusal(answer: Answer): SignatureProviderError {
  const parsed = oauthErrorSchema.safeParse(answer.json);
  const error = parsed.success ? parsed.data.error : `HTTP ${answer.status}`;
  const detail = `token: HTTP ${answer.status} ${answer.text.slice(0, 500)}`;
  if (error === 'consent_required') return new SignatureProviderError(NOT_AUTHORISED, false, detail);
  return new SignatureProviderError(
    `Die Anmeldung bei DocuSign ist fehlgeschlagen (${error}). Bitte wende dich an die Administration.`,
    false,
    detail,
  );
}

/** A 4xx of the REST API (or userinfo), named in German by DocuSign's `errorCode`. */
function restRefusal(answer: Answer): SignatureProviderError {
  const parsed = docusignErrorSchema.safeParse(answer.json);
  const errorCode = (parsed.success && parsed.data.errorCode) || `HTTP ${answer.status}`;
  const message = (parsed.success && parsed.data.message) || answer.text.slice(0, 200);
  const detail = `HTTP ${answer.status} ${errorCode}: ${message}`;
  if (RATE_LIMIT_CODES.has(errorCode)) return new SignatureProviderError(RATE_LIMITED, true, detail);
  if (answer.status === 401) return new SignatureProviderError(NOT_AUTHORISED, false, detail);
  const refusal = Object.hasOwn(REFUSALS, errorCode) ? REFUSALS[errorCode] : undefined;
  return new SignatureProviderError(
    refusal ? refusal(message) : `DocuSign hat die Anfrage abgelehnt: ${errorCode} – ${message}`,
    false,
    detail,
  );
}
