import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCX_MIME_TYPE } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp } from '../compose.js';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { everyOperationApp } from '../test/every-operation-app.js';
import { apiRoutes, bearer, foreignKey, issueToken, type TestApp } from '../test/test-app.js';

/** The parts of OpenAPI 3.1 these tests read. */
interface Schema {
  type?: string;
  format?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
}
type Content = Record<string, { schema: Schema }>;
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Content };
  responses: Record<string, { description: string; content?: Content }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; license?: { name: string; identifier?: string } };
  servers?: { url: string }[];
  tags?: { name: string }[];
  components?: { securitySchemes?: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
}

/**
 * The routes anyone may call: probes, runtime settings, the token exchange of the sign-in, the signer
 * pages, DocuSign's webhook and the sealed PDF a webhook receiver fetches (signed with its secret) or the
 * HTTP CRM fetches (with its write-back's token).
 */
const PUBLIC_OPERATIONS = [
  'GET /backend/health',
  'POST /backend/auth/token',
  'GET /backend/config',
  'GET /backend/ready',
  'GET /backend/signing',
  'GET /backend/signing/document',
  'GET /backend/signing/document.pdf',
  'POST /backend/signing/sign',
  'POST /backend/signing/decline',
  'POST /backend/signing/code',
  'POST /backend/signing/verify',
  // The counterparty's review page, authorised by its link token.
  'GET /backend/review',
  'GET /backend/review/document',
  'POST /backend/review/code',
  'POST /backend/review/verify',
  'POST /backend/review/comments',
  'POST /backend/review/return',
  'POST /backend/signature/docusign/connect',
  'GET /backend/webhooks/envelopes/{envelopeId}/sealed-pdf',
  'GET /backend/crm/envelopes/{envelopeId}/sealed-pdf',
  // A calendar program fetches the feed with the personal token in its path.
  'GET /backend/calendar/{file}',
];

/** `/backend/documents/:id` as OpenAPI writes it: `/backend/documents/{id}`. */
const openApiPath = (path: string) => path.replace(/:([a-zA-Z]+)/g, '{$1}');

function operations(document: OpenApiDocument): { key: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      operation,
    })),
  );
}

function jsonBody(operation: Operation | undefined): Schema | undefined {
  return operation?.requestBody?.content['application/json']?.schema;
}

describe('the OpenAPI description at /backend/docs', () => {
  let db: Db;
  let t: TestApp;
  let document: OpenApiDocument;

  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
    // A web build serves files of its own, and DocuSign adds its webhook: neither may be missed or leak.
    t = await everyOperationApp(db, { docusign: true });
    const token = await t.signIn('berater@demo.local');
    document = (await t.app.inject({ method: 'GET', url: '/backend/docs', headers: bearer(token) })).json();
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const docs = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/backend/docs', headers });

  it('is for signed-in users of any permission level', async () => {
    const consultant = await docs(bearer(await t.signIn('berater@demo.local')));
    expect(consultant.statusCode).toBe(200);
    expect(consultant.headers['content-type']).toMatch(/^application\/json/);
    expect((await docs(bearer(await t.signIn('neu@demo.local')))).statusCode).toBe(200);
  });

  it('refuses a missing, forged or signed-out token with 401', async () => {
    const forged = await issueToken({ email: 'berater@demo.local', key: (await foreignKey).privateKey });
    const signedOut = await issueToken({ email: 'berater@demo.local' });
    for (const headers of [{}, bearer(forged), bearer(signedOut)]) {
      const response = await docs(headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: 'unauthorized',
        message: 'Du bist nicht angemeldet oder deine Sitzung ist abgelaufen.',
      });
    }
  });

  it('is an OpenAPI 3.1 document naming this server’s version, with relative server URLs', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({
      title: 'Vertragsgenerator API',
      version: '0.0.0-test',
      license: { identifier: 'LicenseRef-Proprietary' },
    });
    expect(document.servers).toEqual([{ url: '/' }]);
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    const declaredTags = (document.tags ?? []).map((tag) => tag.name);
    for (const { key, operation } of operations(document)) {
      expect(operation.summary, key).toMatch(/^[A-Z].{10,}/);
      expect(operation.tags?.length, key).toBe(1);
      expect(declaredTags, key).toContain(operation.tags?.[0]);
      expect(
        Object.keys(operation.responses ?? {}).some((status) => /^2\d\d$/.test(status)),
        key,
      ).toBe(true);
    }
  });

  it('names each operation from its method and path, once, in camelCase, for generated clients', () => {
    const ids = operations(document).map(({ key, operation }) => [key, operation.operationId]);
    expect(Object.fromEntries(ids)).toMatchObject({
      'GET /backend/health': 'getHealth',
      'POST /backend/private/saveUser': 'postPrivateSaveUser',
      'GET /backend/signature/envelopes/{id}/document.pdf': 'getSignatureEnvelopesByIdDocumentPdf',
      'GET /backend/documents/{id}/versions/{version}/file': 'getDocumentsByIdVersionsByVersionFile',
      'POST /backend/signature/envelopes/{id}/recipients/{recipientId}/renew-link':
        'postSignatureEnvelopesByIdRecipientsByRecipientIdRenewLink',
      'DELETE /backend/admin/staff/{email}': 'deleteAdminStaffByEmail',
    });
    for (const [key, id] of ids) expect(id, key).toMatch(/^(get|post|put|delete)[A-Z][A-Za-z0-9]*$/);
    expect(new Set(ids.map(([, id]) => id)).size).toBe(ids.length);
  });

  it('declares a 4xx answer on every operation, and lists as required only properties it defines', () => {
    for (const { key, operation } of operations(document)) {
      expect(
        Object.keys(operation.responses).some((status) => /^4\d\d$/.test(status)),
        key,
      ).toBe(true);
    }
    // The overview's counts are a record over the statuses: one property per status, each required.
    const overview = document.paths['/backend/signature/envelopes']?.get?.responses['200'];
    const counts = overview?.content?.['application/json']?.schema.properties?.counts;
    expect(counts?.required).toContain('partially_signed');
    expect(Object.keys(counts?.properties ?? {}).sort()).toEqual([...(counts?.required ?? [])].sort());
  });

  it('describes exactly the API routes the server has, and none of the web app’s files', () => {
    const served = apiRoutes(t.app).map(({ method, path }) => `${method} ${openApiPath(path)}`);
    expect(served).toContain('POST /backend/signature/docusign/connect');
    expect(served).toContain('GET /backend/docs');
    expect(served.length).toBeGreaterThan(30);
    expect(
      operations(document)
        .map(({ key }) => key)
        .sort(),
    ).toEqual([...served].sort());
    expect(t.app.printRoutes({ commonPrefix: false })).toContain('index.html');
  });

  it('declares the bearer token exactly where the server asks for it, and an API client’s where one is admitted', async () => {
    const ops = await t.signIn('ops@demo.local');
    // A client of each level: a route admits API clients when one of them gets past its guard.
    const clientTokens: string[] = [];
    const expiresOn = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
    for (const permission of [1, 2, 3]) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/backend/admin/api-clients',
        headers: bearer(ops),
        payload: { name: `Beschreibung ${permission}`, permission, expiresOn },
      });
      expect(created.statusCode, created.body).toBe(201);
      clientTokens.push(created.json().token);
    }
    const publicOperations: string[] = [];
    for (const { key, operation } of operations(document)) {
      const [method, path] = key.split(' ') as [string, string];
      const call = (headers: Record<string, string> = {}) =>
        t.app.inject({
          method: method as 'GET' | 'POST' | 'PUT',
          url: path.replace(/\{[a-zA-Z]+\}/g, 'x'),
          headers,
          ...(method === 'GET' ? {} : { payload: {} }),
        });
      const response = await call();
      const needsToken = response.statusCode === 401 && response.json().error === 'unauthorized';
      if (needsToken) {
        // The metrics take the scraper's token, not a person's ID token.
        const scheme = key === 'GET /backend/metrics' ? 'metricsToken' : 'bearerAuth';
        let clientAdmitted = false;
        for (const token of clientTokens) {
          const answer = await call(bearer(token));
          expect(answer.statusCode, `${key}: ${answer.body}`).not.toBe(429);
          if (![401, 403].includes(answer.statusCode)) clientAdmitted = true;
        }
        const expected = clientAdmitted ? [{ [scheme]: [] }, { apiClientToken: [] }] : [{ [scheme]: [] }];
        expect(operation.security, key).toEqual(expected);
      } else {
        expect(operation.security, key).toEqual([]);
        publicOperations.push(key);
      }
    }
    expect(publicOperations.sort()).toEqual([...PUBLIC_OPERATIONS].sort());
  });

  it('takes the request bodies from the domain schemas', () => {
    const post = (path: string) => document.paths[path]?.post;
    expect(jsonBody(post('/backend/private/saveUser'))?.properties?.email).toMatchObject({
      type: 'string',
      format: 'email',
    });
    expect(jsonBody(post('/backend/sendSupportEmail'))?.required).toEqual(['subject', 'msgBody']);

    for (const path of [
      '/backend/generateDocx/{docId}/{matchId}',
      '/backend/generateDocxOffer/{docId}/{matchId}',
    ]) {
      const body = jsonBody(post(path));
      expect(body?.required).toEqual(['dataList']);
      const forms = body?.properties?.dataList?.anyOf ?? [];
      expect(forms.map((form) => form.required)).toEqual(
        expect.arrayContaining([
          ['vertragspartner_type'],
          ['selectedPerson', 'position', 'vertragspartner_type'],
          ['projectHours', 'projectDays', 'selectedPerson', 'vertragspartner_type'],
        ]),
      );
    }
    const envelopeBody = jsonBody(post('/backend/generateDocusign/{docId}/{matchId}'));
    expect(envelopeBody?.properties?.dataList?.properties).toHaveProperty('Projektpartner_Email');

    const signBody = jsonBody(post('/backend/signing/sign'));
    expect(signBody?.required).toEqual(['consent', 'typedName']);
    expect(jsonBody(post('/backend/signature/envelopes/{id}/send'))?.required).toEqual([
      'subject',
      'message',
      'recipients',
    ]);
  });

  it('documents the headers a route reads and the files it answers', () => {
    const header = (operation: Operation | undefined, name: string) =>
      operation?.parameters?.find((parameter) => parameter.in === 'header' && parameter.name === name);
    for (const { key, operation } of operations(document).filter(({ key }) =>
      key.includes('/backend/signing'),
    )) {
      expect(header(operation, 'x-signing-token'), key).toMatchObject({ required: true });
    }
    const generateEnvelope = document.paths['/backend/generateDocusign/{docId}/{matchId}']?.post;
    expect(header(generateEnvelope, 'idempotency-key')).toMatchObject({ required: false });
    const save = document.paths['/backend/documents/{id}']?.put;
    expect(header(save, 'if-match')).toMatchObject({ required: true });
    expect(Object.keys(save?.requestBody?.content ?? {})).toEqual([DOCX_MIME_TYPE]);

    const generated = document.paths['/backend/generateDocx/{docId}/{matchId}']?.post?.responses['200'];
    expect(Object.keys(generated?.content ?? {})).toEqual([DOCX_MIME_TYPE]);
    const noLevel = document.paths['/backend/private/getPermission/{email}']?.post?.responses['204'];
    expect(noLevel).not.toHaveProperty('content');
  });

  it('describes errors as the { error, message, fields } answer', () => {
    const denied = document.paths['/backend/users']?.get?.responses['403'];
    const schema = denied?.content?.['application/json']?.schema;
    expect(schema?.required).toEqual(['error', 'message']);
    expect(Object.keys(schema?.properties ?? {})).toEqual(['error', 'message', 'fields']);
  });
});

describe('the OpenAPI description beside the embedded identity provider', () => {
  it('leaves out /idp', async () => {
    const db = await pgliteTestDatabase.open();
    const config = loadConfig(
      {
        DATA_DIR: mkdtempSync(join(tmpdir(), 'vg-idp-')),
        WEB_DIST_DIR: join(tmpdir(), 'vg-no-web-build'),
        LOG_LEVEL: 'silent',
      },
      '0.0.0-test',
    );
    const app = await composeApp(config, db, false);
    try {
      await app.ready();
      expect(app.printRoutes({ commonPrefix: false })).toContain('/idp');
      const paths = Object.keys((app.swagger() as OpenApiDocument).paths);
      expect(paths).toContain('/backend/docs');
      expect(paths.filter((path) => !path.startsWith('/backend/'))).toEqual([]);
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});
