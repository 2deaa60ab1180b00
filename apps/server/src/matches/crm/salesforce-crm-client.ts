import { Connection } from 'jsforce';
import { z } from 'zod';
import { ConfigError, type CrmConfig } from '../../config/config.js';
import { type CrmClient, CrmRefusedError, CrmSignInRefusedError, CrmTransientError } from './crm-client.js';
import { type CrmMapping, type FieldMapping, mappedPaths, parsePath } from './mapping.js';

/** The Salesforce settings of the configuration (config/crm.ts documents each) and the request deadline. */
export type SalesforceOptions = Pick<
  Extract<CrmConfig, { kind: 'salesforce' }>,
  'loginUrl' | 'clientId' | 'clientSecret' | 'object' | 'idField' | 'apiVersion' | 'timeoutMs'
>;

const tokenSchema = z.object({ access_token: z.string().min(1), instance_url: z.url() });
const queryResultSchema = z.object({
  records: z.array(z.unknown()),
  // A large result comes in batches: `done` false and the address of the next one.
  done: z.boolean().optional(),
  nextRecordsUrl: z.string().optional(),
});

/**
 * IDs per query of `fetchRecords`. The query goes in the URL (`GET …/query?q=`), and URLs beyond about
 * 16 KB are refused by proxies and servers alike, long before SOQL's own limit of 100,000 characters:
 * 200 IDs of the form `PL-10001` take 3.2 KB encoded (`'PL-10001'%2C%20` each), with the preset's
 * select list a URL of 4 KB, so a batch of 1,000 matches needs five queries and a chunk leaves room
 * for longer IDs and select lists. Longer IDs fill a chunk sooner: each chunk's URL also stays within
 * QUERY_URL_BUDGET (an ID too long for it alone gets a query of its own, as `fetchRecord` would send).
 */
const IDS_PER_QUERY = 200;
const QUERY_URL_BUDGET = 16_000;

const SOQL_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

// Salesforce's server errors; other error codes (MALFORMED_QUERY, INVALID_FIELD, REQUEST_LIMIT_EXCEEDED …)
// are answers to this request that another attempt gets again.
const TRANSIENT_ERROR_CODES = new Set([
  'SERVER_UNAVAILABLE',
  'UNKNOWN_EXCEPTION',
  'ERROR_HTTP_500',
  'ERROR_HTTP_502',
  'ERROR_HTTP_503',
  'ERROR_HTTP_504',
]);

/** A SOQL string literal: backslash and quotes escaped, control characters as their escape sequences. */
export function soqlString(value: string): string {
  const escaped = value.replace(/[\\'"\n\r\t\b\f]/g, (char) => {
    const named: Record<string, string> = { '\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f' };
    return `\\${named[char] ?? char}`;
  });
  return `'${escaped}'`;
}

/** Every mapped path must be a field or relationship path SOQL can select, e.g. `Account__r.Name`. */
function checkSelectable(mapping: CrmMapping, source: string): void {
  const entries: [string, FieldMapping | { path: string; fallbacks: string[] }][] = [
    ['matchId', { path: mapping.matchId, fallbacks: [] }],
    ...Object.entries(mapping.fields),
  ];
  const problems = entries.flatMap(([field, { path, fallbacks }]) =>
    [path, ...fallbacks]
      .filter(
        (candidate) =>
          !parsePath(candidate).every((step) => typeof step === 'string' && SOQL_NAME.test(step)),
      )
      .map(
        (candidate) =>
          `${field} ("${candidate}"): Salesforce paths are field API names joined by dots, without indexes`,
      ),
  );
  if (problems.length > 0)
    throw new ConfigError(`Invalid CRM mapping ${source}:\n  ${problems.join('\n  ')}`);
}

/**
 * Matches from a Salesforce object, by SOQL on the match-ID field, through jsforce with the OAuth 2.0
 * client credentials flow. jsforce sends the token request itself only without a timeout and with its
 * own retries, so the token comes from one bounded fetch here; jsforce gets instance URL and token and
 * runs the query.
 *
 * Two things jsforce does not do are done here. Its timeout ends only the wait for the headers, so an
 * answer whose body stalls would hold the lookup until Salesforce finishes: one deadline of
 * `timeoutMs` covers the whole attempt instead — signing in, the query and reading its answer. And
 * its own session refresh signs in again after every 401 for as long as Salesforce answers 401, which
 * a restriction that refuses every token makes endless: a 401 here gets one fresh token per attempt,
 * and a second 401 is `CrmSignInRefusedError`.
 */
export class SalesforceCrmClient implements CrmClient {
  private connection: Promise<Connection> | undefined;
  private readonly selectList: string;
  /** The select list with the ID field, by which `fetchRecords` tells its records apart. */
  private readonly selectListWithId: string;

  constructor(
    private readonly options: SalesforceOptions,
    mapping: CrmMapping,
    mappingSource: string,
  ) {
    checkSelectable(mapping, mappingSource);
    // SOQL field names are case-insensitive: one name selected twice in other cases is a query error.
    const fields = new Map(mappedPaths(mapping).map((path) => [path.toLowerCase(), path]));
    this.selectList = [...fields.values()].join(', ');
    if (!fields.has(options.idField.toLowerCase()))
      fields.set(options.idField.toLowerCase(), options.idField);
    this.selectListWithId = [...fields.values()].join(', ');
  }

  async fetchRecord(matchId: string): Promise<unknown> {
    const soql = `SELECT ${this.selectList} FROM ${this.options.object} WHERE ${this.options.idField} = ${soqlString(matchId)} LIMIT 1`;
    const answer = await withinDeadline(
      this.queryOnce(soql),
      this.options.timeoutMs,
      `query ${this.options.object}`,
    );
    return this.queryResult(answer).records[0];
  }

  /**
   * One query per chunk of up to IDS_PER_QUERY IDs (`WHERE <idField> IN (…)`), the chunks one after
   * another, each following `nextRecordsUrl` through a paged answer. Each request has the deadline of
   * `timeoutMs`. A record answers for the ID its ID field holds; as SOQL compares text without regard to
   * case, as `fetchRecord`'s `=` does, an ID differing only in case finds it too.
   */
  async fetchRecords(matchIds: readonly string[]): Promise<Map<string, unknown>> {
    const ids = [...new Set(matchIds)];
    const found = new Map<string, unknown>();
    for (const chunk of this.chunks(ids)) {
      const records = await this.recordsOf(this.inQuery(chunk));
      const byId = new Map<string, unknown>();
      const byLowerCaseId = new Map<string, unknown>();
      for (const record of records) {
        const id = this.idOf(record);
        if (id === undefined) continue;
        // The first record per ID, as `LIMIT 1` would answer.
        if (!byId.has(id)) byId.set(id, record);
        if (!byLowerCaseId.has(id.toLowerCase())) byLowerCaseId.set(id.toLowerCase(), record);
      }
      for (const matchId of chunk) {
        const record = byId.get(matchId) ?? byLowerCaseId.get(matchId.toLowerCase());
        if (record !== undefined) found.set(matchId, record);
      }
    }
    return found;
  }

  private inQuery(matchIds: readonly string[]): string {
    const literals = matchIds.map(soqlString).join(', ');
    return `SELECT ${this.selectListWithId} FROM ${this.options.object} WHERE ${this.options.idField} IN (${literals})`;
  }

  /** The IDs in chunks of at most IDS_PER_QUERY whose query URL stays within QUERY_URL_BUDGET. */
  private chunks(ids: readonly string[]): string[][] {
    const empty = this.queryPath(this.inQuery([])).length;
    const chunks: string[][] = [];
    let chunk: string[] = [];
    let length = empty;
    for (const id of ids) {
      // The literal and the `, ` before it, encoded.
      const more = encodeURIComponent(`, ${soqlString(id)}`).length;
      if (chunk.length > 0 && (chunk.length === IDS_PER_QUERY || length + more > QUERY_URL_BUDGET)) {
        chunks.push(chunk);
        chunk = [];
        length = empty;
      }
      chunk.push(id);
      length += more;
    }
    if (chunk.length > 0) chunks.push(chunk);
    return chunks;
  }

  /** Every record a query finds, page by page. */
  private async recordsOf(soql: string): Promise<unknown[]> {
    const what = `query ${this.options.object}`;
    const records: unknown[] = [];
    let url: string | undefined = this.queryPath(soql);
    while (url !== undefined) {
      const request = { method: 'GET' as const, url };
      const page = this.queryResult(
        await withinDeadline(this.requestOnce(what, request), this.options.timeoutMs, what),
      );
      records.push(...page.records);
      if (page.done !== false) break;
      if (page.nextRecordsUrl === undefined || page.nextRecordsUrl === url)
        throw new CrmTransientError(`${what}: answer not done, without nextRecordsUrl`);
      url = page.nextRecordsUrl;
    }
    return records;
  }

  private queryResult(answer: unknown): z.infer<typeof queryResultSchema> {
    const parsed = queryResultSchema.safeParse(answer);
    if (!parsed.success) throw new CrmTransientError(`query ${this.options.object}: answer without records`);
    return parsed.data;
  }

  /** The value of the ID field in a record, whose key is spelt as Salesforce spells the field. */
  private idOf(record: unknown): string | undefined {
    if (record === null || typeof record !== 'object') return undefined;
    const wanted = this.options.idField.toLowerCase();
    const key = Object.keys(record).find((name) => name.toLowerCase() === wanted);
    const value = key === undefined ? undefined : (record as Record<string, unknown>)[key];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  }

  /** The query, signed in again once when Salesforce refuses the token it has. */
  private queryOnce(soql: string): Promise<unknown> {
    return this.requestOnce(`query ${this.options.object}`, { method: 'GET', url: this.queryPath(soql) });
  }

  private queryPath(soql: string): string {
    return `/services/data/v${this.options.apiVersion}/query?q=${encodeURIComponent(soql)}`;
  }

  /**
   * One request to the REST API (the CRM write-back's uploads, updates and describe), with the
   * lookup's sign-in, its one fresh token after a 401 and a deadline of `deadlineMs` for the whole
   * exchange. Errors as the lookup's: `CrmTransientError`, `CrmRefusedError` (with Salesforce's
   * `errorCode` in `cause`) or `CrmSignInRefusedError`.
   */
  request(
    what: string,
    request: { method: 'GET' | 'POST' | 'PATCH'; url: string; body?: string },
    deadlineMs = this.options.timeoutMs,
  ): Promise<unknown> {
    return withinDeadline(this.requestOnce(what, request, deadlineMs), deadlineMs, what);
  }

  /** A SOQL query through `request`. */
  soql(what: string, soql: string): Promise<unknown> {
    return this.request(what, { method: 'GET', url: this.queryPath(soql) });
  }

  private async requestOnce(
    what: string,
    request: { method: 'GET' | 'POST' | 'PATCH'; url: string; body?: string },
    timeoutMs = this.options.timeoutMs,
  ): Promise<unknown> {
    const first = this.connect();
    try {
      return await this.send(await first, request, timeoutMs);
    } catch (error) {
      if (!isSessionRefused(error)) throw classify(error, what);
      this.forget(first);
    }
    // An expired token: a fresh one, and the request once more.
    const fresh = this.connect();
    try {
      return await this.send(await fresh, request, timeoutMs);
    } catch (error) {
      if (!isSessionRefused(error)) throw classify(error, what);
      this.forget(fresh);
      throw new CrmSignInRefusedError(
        `${what}: Salesforce refused a freshly issued token too (${(error as Error).message})`,
        { cause: error },
      );
    }
  }

  private send(
    connection: Connection,
    request: { method: 'GET' | 'POST' | 'PATCH'; url: string; body?: string },
    timeoutMs: number,
  ): Promise<unknown> {
    return connection.request(
      {
        method: request.method,
        url: request.url,
        ...(request.body === undefined
          ? {}
          : { body: request.body, headers: { 'content-type': 'application/json' } }),
      },
      {
        // Retries and the deadline are ours (CRM_RETRIES, CRM_TIMEOUT_MS), not jsforce's defaults.
        retry: { maxRetries: 0 },
        timeout: timeoutMs,
      },
    );
  }

  /** Drops a connection whose token Salesforce refused, unless another lookup has replaced it already. */
  private forget(connection: Promise<Connection>): void {
    if (this.connection === connection) this.connection = undefined;
  }

  private connect(): Promise<Connection> {
    if (!this.connection) {
      const connection = this.requestToken().then(
        (token) =>
          new Connection({
            instanceUrl: token.instance_url,
            accessToken: token.access_token,
            version: this.options.apiVersion,
          }),
      );
      // A failed sign-in is not kept: the next lookup tries again.
      connection.catch(() => {
        if (this.connection === connection) this.connection = undefined;
      });
      this.connection = connection;
    }
    return this.connection;
  }

  private async requestToken(): Promise<z.infer<typeof tokenSchema>> {
    const url = `${this.options.loginUrl}/services/oauth2/token`;
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
    });
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      throw new CrmTransientError(`Salesforce token: ${(error as Error).message}`, { cause: error });
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      const problem = `Salesforce token answered ${response.status}: ${text.slice(0, 200)}`;
      // Refused credentials (`invalid_client`, `invalid_grant`): an operator must fix the connected app.
      throw response.status >= 500 ? new CrmTransientError(problem) : new CrmSignInRefusedError(problem);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CrmTransientError('Salesforce token: answer is not JSON');
    }
    const token = tokenSchema.safeParse(json);
    if (!token.success)
      throw new CrmRefusedError('Salesforce token: answer without access_token and instance_url');
    return token.data;
  }
}

/** jsforce errors with an `errorCode` are Salesforce's answers; the others are network errors and timeouts. */
function classify(error: unknown, what: string): Error {
  if (error instanceof CrmTransientError || error instanceof CrmRefusedError) return error;
  const code = (error as { errorCode?: unknown }).errorCode;
  const message = `${what}: ${(error as Error).message}`;
  if (typeof code === 'string' && !TRANSIENT_ERROR_CODES.has(code))
    return new CrmRefusedError(message, { cause: error });
  return new CrmTransientError(message, { cause: error });
}

/** Salesforce's 401: the token is expired or refused (`INVALID_SESSION_ID`). */
function isSessionRefused(error: unknown): boolean {
  const code = (error as { errorCode?: unknown }).errorCode;
  return code === 'INVALID_SESSION_ID' || code === 'ERROR_HTTP_401';
}

/**
 * `work`, or a `CrmTransientError` once `ms` have passed: the deadline of the whole attempt. The
 * attempt left behind finishes or fails unobserved.
 */
function withinDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CrmTransientError(`${what}: no complete answer within ${ms} ms`)),
      ms,
    );
  });
  work.catch(() => undefined);
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
