import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { catalogueTemplates, DOCX_MIME_TYPE, type ResolvedMatch } from '@vertragsgenerator/domain';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { richestDemoMatch } from '../templates/samples.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { everyOperationApp } from '../test/every-operation-app.js';
import { sentPartnerEnvelope } from '../test/partner-envelope.js';
import { bearer, foreignKey, issueToken, type TestApp } from '../test/test-app.js';

/*
 * Every operation of the served OpenAPI description, tried as someone who means harm or makes
 * mistakes would: no token, a forged one, one without a session, and signed in at each level; odd
 * path and query values; bodies that are no request. The server must answer each with a status below
 * 500 (never drop the connection) and, where it answers 4xx, the API's `{ error, message }`; a
 * private operation (one with `security`) refuses without a valid session. The cases come from the
 * description, so a new route is tried the day it is added.
 */

/** The parts of OpenAPI 3.1 this check reads. */
interface Schema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
}
interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Values no parameter expects, as they stand in the URL (percent-encoded where needed), and the status
 * with which the router refuses some of them in a path before any route runs. A lone `%2E%2E` is not
 * among them: URL resolution, a browser's as inject's, takes it for `..` and drops the segment.
 */
const ODD_VALUES: { label: string; value: string; routerRefusesInPath?: number }[] = [
  { label: '../ with encoded slashes', value: '..%2F..%2Fetc%2Fpasswd' },
  { label: '../ encoded whole', value: '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd' },
  { label: 'NUL', value: 'x%00' },
  // Above the router's 500 characters for a path value (maxParamLength).
  { label: '5,000 characters', value: 'x'.repeat(5000), routerRefusesInPath: 414 },
  { label: 'emoji', value: encodeURIComponent('📄🔥') },
  { label: 'SQL', value: encodeURIComponent("' OR 1=1--") },
  { label: 'a huge number', value: '99999999999999999999' },
  { label: 'broken percent-encoding', value: '%E0%A4%A', routerRefusesInPath: 400 },
];

/** Above every body limit of the API: the largest, 20 MB, is the edited DOCX's and the checked PDF's. */
const OVERSIZED = Buffer.alloc(21 * 1024 * 1024, 'x');

/**
 * A body that is no request, and the status besides 401 that may refuse it before an operation's
 * guard runs: Fastify reads and parses the body before the guards of most routes.
 */
interface BadBody {
  label: string;
  contentType?: string;
  payload: string | Buffer;
  beforeGuard?: number;
}

function badBodies(operation: Operation): BadBody[] {
  const json = (label: string, payload: string, beforeGuard?: number): BadBody => ({
    label,
    contentType: 'application/json',
    payload,
    beforeGuard,
  });
  const declared = Object.keys(operation.requestBody?.content ?? {});
  return [
    json('broken JSON', '{"subject":', 400),
    json('an empty JSON body', '', 400),
    json('a JSON array', '[]'),
    json('a JSON string', '"Betreff"'),
    json('JSON null', 'null'),
    json('a huge JSON number', '99999999999999999999'),
    json('JSON nested 5,000 deep', `${'['.repeat(5000)}${']'.repeat(5000)}`),
    json('JSON of the wrong types', JSON.stringify(wrongTypes(operation))),
    ...[
      'application/xml',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/pdf',
      DOCX_MIME_TYPE,
      'kein/typ; ;;',
    ].map((contentType) => ({
      label: contentType,
      contentType,
      payload: 'PK kein Dokument',
      beforeGuard: 415,
    })),
    { label: 'no content type', payload: '{}', beforeGuard: 415 },
    ...(declared.length > 0 ? declared : ['application/json']).map((contentType) => ({
      label: `${contentType} above the limit`,
      contentType,
      payload: OVERSIZED,
      beforeGuard: 413,
    })),
  ];
}

/** For each JSON type, a value of another. */
const WRONG_VALUES: Record<string, unknown> = {
  string: 12345,
  number: 'zwölf',
  integer: 'zwölf',
  boolean: 'ja',
  array: { kein: 'Array' },
  object: ['kein', 'Objekt'],
};

/** The documented JSON body with each property of another type than described. */
function wrongTypes(operation: Operation): Record<string, unknown> {
  const schema = operation.requestBody?.content['application/json']?.schema;
  return Object.fromEntries(
    Object.entries(schema?.properties ?? { unbekannt: {} }).map(([name, property]) => [
      name,
      WRONG_VALUES[String([property.type].flat()[0])] ?? WRONG_VALUES.object,
    ]),
  );
}

/** What one application of the check needs to reach past "not found": things that exist. */
interface Fixtures {
  matchId: string;
  documentId: string;
  envelopeId: string;
  recipientId: string;
  signingLink: string;
}

/** A value each parameter takes, so that the odd value in another one is what the server sees. */
function sampleValue(parameter: Parameter, path: string, fixtures: Fixtures): string {
  switch (parameter.name) {
    case 'id':
      if (path.startsWith('/backend/documents/')) return fixtures.documentId;
      if (path.startsWith('/backend/signature/envelopes/')) return fixtures.envelopeId;
      return randomUUID();
    case 'recipientId':
      return fixtures.recipientId;
    case 'matchId':
      return fixtures.matchId;
    case 'docId':
    case 'key':
      return 'de-we-pp-ev';
    case 'name':
      return encodeURIComponent(catalogueTemplates()[0] ?? 'x');
    case 'email':
      // Nobody: an administrator's request must not change a colleague the other cases sign in as.
      return 'niemand@demo.local';
    case 'x-signing-token':
      return fixtures.signingLink;
    case 'if-match':
      return '"1"';
  }
  const { schema } = parameter;
  if (schema?.enum?.[0] !== undefined) return String(schema.enum[0]);
  return schema?.type === 'integer' || schema?.type === 'number' ? '1' : 'x';
}

interface Attempt {
  label: string;
  request: InjectOptions & { method: Method; url: string };
  /** Besides 401, the status that may refuse it before the operation's guard runs. */
  beforeGuard?: number;
}

/** The requests to try on one operation, without credentials. */
function attempts(path: string, method: Method, operation: Operation, fixtures: Fixtures): Attempt[] {
  const parameters = operation.parameters ?? [];
  const sample = (parameter: Parameter) => sampleValue(parameter, path, fixtures);
  const request = (odd?: { parameter: Parameter; value: string }, body?: BadBody): Attempt['request'] => {
    const value = (parameter: Parameter) => (parameter === odd?.parameter ? odd.value : sample(parameter));
    let url = path;
    const query: string[] = [];
    const headers: Record<string, string> = {};
    for (const parameter of parameters) {
      if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, value(parameter));
      if (parameter.in === 'query' && (parameter.required || parameter === odd?.parameter)) {
        query.push(`${parameter.name}=${value(parameter)}`);
      }
      if (parameter.in === 'header' && parameter.required) headers[parameter.name] = value(parameter);
    }
    if (body?.contentType) headers['content-type'] = body.contentType;
    return {
      method,
      url: query.length > 0 ? `${url}?${query.join('&')}` : url,
      headers,
      ...(body ? { payload: body.payload } : method === 'GET' ? {} : { payload: {} }),
    };
  };
  const oddValues = parameters
    .filter((parameter) => parameter.in === 'path' || parameter.in === 'query')
    .flatMap((parameter) =>
      ODD_VALUES.map(
        ({ label, value, routerRefusesInPath }): Attempt => ({
          label: `${parameter.in} ${parameter.name} = ${label}`,
          request: request({ parameter, value }),
          beforeGuard: parameter.in === 'path' ? routerRefusesInPath : undefined,
        }),
      ),
    );
  const bodies =
    method === 'GET'
      ? []
      : badBodies(operation).map(
          (body): Attempt => ({
            label: body.label,
            request: request(undefined, body),
            beforeGuard: body.beforeGuard,
          }),
        );
  return [{ label: 'sample values', request: request() }, ...oddValues, ...bodies];
}

/** Who calls: without a token, with a forged one, with a valid token but no session, or signed in. */
interface Caller {
  name: string;
  credentials: 'none' | 'forged' | 'no session' | 'signed in';
  headers: () => Promise<Record<string, string>>;
}

/** Refused ones first: the signed-in levels' requests may change what exists (a voided envelope). */
function callers(signedIn: Record<string, string>): Caller[] {
  return [
    { name: 'no token', credentials: 'none', headers: async () => ({}) },
    {
      name: 'a forged token',
      credentials: 'forged',
      headers: async () =>
        bearer(await issueToken({ email: 'legal@demo.local', key: (await foreignKey).privateKey })),
    },
    {
      // A fresh one each time: the sign-in route, tried with it, opens its session.
      name: 'a token without a session',
      credentials: 'no session',
      headers: async () => bearer(await issueToken({ email: 'legal@demo.local' })),
    },
    ...Object.entries(signedIn).map(
      ([name, token]): Caller => ({ name, credentials: 'signed in', headers: async () => bearer(token) }),
    ),
  ];
}

/** The one operation a valid token without a session may call: the sign-in, which opens it. */
const OPENS_THE_SESSION = 'postPrivateSaveUser';

/** An inject that never answers is a dropped connection: it fails the check rather than its timeout. */
async function answered(t: TestApp, request: Attempt['request']): Promise<LightMyRequestResponse | string> {
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('no answer within 10 s'), 10_000);
  });
  try {
    return await Promise.race([t.app.inject(request), silence]);
  } catch (error) {
    return `the request failed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}

/** Words of the English answers Fastify and its plugins give where the server does not word its own. */
const ENGLISH = /\b(the|is|not|must|should|body|route|request|unsupported|invalid|error)\b/i;

/** What is wrong with one answer, or nothing. */
function problem(
  response: LightMyRequestResponse | string,
  { caller, attempt, operation }: { caller: Caller; attempt: Attempt; operation: Operation },
): string | undefined {
  if (typeof response === 'string') return response;
  const status = response.statusCode;
  if (status >= 500) return `${status} ${response.body.slice(0, 200)}`;
  const mustRefuse =
    (operation.security ?? []).length > 0 &&
    caller.credentials !== 'signed in' &&
    !(caller.credentials === 'no session' && operation.operationId === OPENS_THE_SESSION);
  if (mustRefuse && status !== 401 && status !== attempt.beforeGuard) {
    return `${status} instead of 401 without a valid session`;
  }
  if (status >= 400) {
    const body = (() => {
      try {
        return response.json() as { error?: unknown; message?: unknown };
      } catch {
        return undefined;
      }
    })();
    if (typeof body?.error !== 'string' || typeof body.message !== 'string') {
      return `${status} without { error, message }: ${response.body.slice(0, 200)}`;
    }
    if (ENGLISH.test(body.message)) return `${status} in English: ${body.message}`;
  }
  return undefined;
}

async function documentOf(t: TestApp): Promise<OpenApiDocument> {
  const token = await t.signIn('berater@demo.local');
  return (await t.app.inject({ method: 'GET', url: '/backend/docs', headers: bearer(token) })).json();
}

function operationsOf(document: OpenApiDocument): { path: string; method: Method; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      path,
      method: method.toUpperCase() as Method,
      operation,
    })),
  );
}

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));

/** An app of one configuration, with a document, a sent envelope and everyone signed in. */
async function prepared(db: Db, docusign: boolean) {
  await new MatchStore(db).upsertMany([match]);
  const t = await everyOperationApp(db, { docusign });
  const signedIn: Record<string, string> = {};
  for (const [level, email] of [
    ['signed in without a level', 'neu@demo.local'],
    ['a consultant', 'berater@demo.local'],
    ['legal', 'legal@demo.local'],
    ['a leader', 'leitung@demo.local'],
    ['an administrator', 'ops@demo.local'],
  ] as const) {
    signedIn[level] = await t.signIn(email);
  }
  const generated = await t.app.inject({
    method: 'POST',
    url: `/backend/generateDocx/docx-de-wm-rv/${match.matchId}`,
    headers: bearer(signedIn.legal as string),
    payload: { dataList: { vertragspartner_type: 'k' } },
  });
  if (generated.statusCode !== 200) throw new Error(`no document to try: ${generated.body}`);
  const fixtures: Fixtures = {
    matchId: match.matchId,
    documentId: String(generated.headers['x-document-id']),
    envelopeId: randomUUID(),
    recipientId: randomUUID(),
    signingLink: 'x',
  };
  if (!docusign) {
    const partner = { name: 'Pia Partner', email: 'pia@partner.example' };
    const envelope = await sentPartnerEnvelope(t, {
      token: signedIn['a consultant'] as string,
      matchId: match.matchId,
      partner,
    });
    Object.assign(fixtures, {
      envelopeId: envelope.id,
      recipientId: envelope.recipientId,
      signingLink: envelope.link,
    });
  }
  return { t, fixtures, callers: callers(signedIn), document: await documentOf(t) };
}

const databases = [await pgliteTestDatabase.open(), await pgliteTestDatabase.open()];
// Built-in signing serves all operations but DocuSign's webhook; the second app serves that one.
const apps = [await prepared(databases[0] as Db, false), await prepared(databases[1] as Db, true)];
afterAll(async () => {
  for (const { t } of apps) await t.app.close();
  for (const db of databases) await db.destroy();
});

const cases = new Map<string, ReturnType<typeof operationsOf>[number] & { app: (typeof apps)[number] }>();
for (const app of apps) {
  for (const operation of operationsOf(app.document)) {
    const key = `${operation.method} ${operation.path}`;
    if (!cases.has(key)) cases.set(key, { ...operation, app });
  }
}

describe('every operation of the OpenAPI description, tried with hostile input', () => {
  it('covers the whole API', () => {
    expect(cases.size).toBeGreaterThan(55);
    expect([...cases.keys()]).toContain('POST /backend/signature/docusign/connect');
  });

  it('answers HEAD for every GET operation as GET, without the body', async () => {
    const differences: string[] = [];
    for (const { path, method, operation, app } of cases.values()) {
      if (method !== 'GET') continue;
      const [plain] = attempts(path, method, operation, app.fixtures);
      for (const caller of app.callers.filter(({ name }) => name === 'no token' || name === 'legal')) {
        const headers = { ...plain?.request.headers, ...(await caller.headers()) };
        const get = await app.t.app.inject({ ...plain?.request, method: 'GET', headers });
        const head = await app.t.app.inject({ ...plain?.request, method: 'HEAD', headers });
        if (head.statusCode !== get.statusCode || head.body !== '') {
          differences.push(
            `${operation.operationId}, ${caller.name}: GET ${get.statusCode}, HEAD ${head.statusCode}`,
          );
        }
      }
    }
    expect(differences).toEqual([]);
  });

  it.each([...cases.values()].map((entry) => [entry.operation.operationId, entry] as const))(
    '%s answers below 500, in the error shape, and refuses without a session',
    async (_id, { path, method, operation, app }) => {
      const problems: string[] = [];
      for (const caller of app.callers) {
        for (const attempt of attempts(path, method, operation, app.fixtures)) {
          const request = {
            ...attempt.request,
            headers: { ...attempt.request.headers, ...(await caller.headers()) },
          };
          const found = problem(await answered(app.t, request), { caller, attempt, operation });
          if (found) problems.push(`${caller.name}, ${attempt.label}: ${found}`);
        }
      }
      expect(problems).toEqual([]);
    },
    120_000,
  );
});
