import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  catalogueEntry,
  catalogueTemplates,
  DOCX_MIME_TYPE,
  type EnvelopeView,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp } from '../compose.js';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { parseMatchFile } from '../matches/import.js';
import { MatchStore } from '../matches/match-store.js';
import { loadCompanyData } from '../templates/companies.js';
import { createRendererPool, type Renderer } from '../templates/renderer.js';
import { richestDemoMatch, sampleDataList } from '../templates/samples.js';
import { pgliteTestDatabase, testDatabases } from '../test/databases.js';
import { docxParts, docxText } from '../test/docx-text.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const config = loadConfig({}, '0');
const demo: ResolvedMatch = await richestDemoMatch(join(config.configDir, 'demo-matches.json'));
const { signatories } = await loadCompanyData(config.configDir);

/** Markup a CRM field may carry: HTML, WordprocessingML and the end of an XML CDATA section. */
const SCRIPT = '<script>alert(1)</script> & <w:t>';
const CDATA_END = ']]> <![CDATA[ x';
const HOSTILE_ID = 'PL-66666';
const hostileRecord = {
  ...demo,
  matchId: HOSTILE_ID,
  candidateFirstName: SCRIPT,
  candidateLastName: CDATA_END,
  kunde: `Kunde ${SCRIPT}`,
  position: `Position ${CDATA_END}`,
  aufgabenbeschreibung: `Aufgabe ${SCRIPT} ${CDATA_END}`,
};

const json = (body: string) => ({ headers: { 'content-type': 'application/json' }, payload: body });

/** An answer in the API's error shape (docs/architecture.md#api-conventions) with a German message. */
function expectError(response: LightMyRequestResponse, status: number, error: string, label = '') {
  expect(response.statusCode, `${label} ${response.body}`).toBe(status);
  expect(response.json(), label).toEqual(
    expect.objectContaining({ error, message: expect.stringMatching(/[a-zäöüß]{3}/) }),
  );
}

describe.each(testDatabases())('hostile input on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;
  let berater: string;
  const rendered: string[] = [];

  /** The real renderer, recording which template files it was asked for. */
  function recordingRenderer(): Renderer {
    const pool = createRendererPool({ threads: 1 });
    return {
      render: (template, data) => {
        rendered.push(template.name);
        return pool.render(template, data);
      },
      pending: () => pool.pending(),
      closed: () => pool.closed(),
      close: () => pool.close(),
    };
  }

  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    token: string | null = legal,
    extra: { headers?: Record<string, string>; payload?: object | string | Buffer } = {},
    app: FastifyInstance = t.app,
  ) =>
    app.inject({
      method,
      url,
      headers: { ...(token ? bearer(token) : {}), ...extra.headers },
      ...(extra.payload === undefined ? {} : { payload: extra.payload }),
    });

  async function generateDocx(key: string, matchId = HOSTILE_ID, app = t.app) {
    const entry = catalogueEntry(key);
    if (!entry) throw new Error(key);
    const response = await call(
      'POST',
      `/backend/generateDocx/${key}/${matchId}`,
      legal,
      {
        payload: { dataList: sampleDataList(entry, demo, signatories) },
      },
      app,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response;
  }

  beforeAll(async () => {
    db = await database.open();
    // The import refuses markup; an external CRM can still deliver it, so the record goes into the
    // store as a CRM answer would reach the documents, and every output must escape it.
    expect(parseMatchFile(JSON.stringify([hostileRecord])).refused).toHaveLength(1);
    await new MatchStore(db).upsertMany([demo, hostileRecord]);
    t = await createTestApp(db, { demoStaff: true, renderer: recordingRenderer() });
    legal = await t.signIn('legal@demo.local');
    berater = await t.signIn('berater@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  describe('markup in match fields', () => {
    it('comes back verbatim from the match lookup', async () => {
      const response = await call('POST', `/backend/match/${HOSTILE_ID}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        candidateFirstName: SCRIPT,
        candidateLastName: CDATA_END,
        kunde: `Kunde ${SCRIPT}`,
        position: `Position ${CDATA_END}`,
        aufgabenbeschreibung: `Aufgabe ${SCRIPT} ${CDATA_END}`,
      });
    });

    it.each([
      ['docx-de-wm-rv', [`Kunde ${SCRIPT}`]],
      ['de-wm-pp-rv', [SCRIPT, CDATA_END]],
    ])('is text in the %s document, which stays well-formed XML', async (key, expected) => {
      const docx = (await generateDocx(key)).rawPayload;
      // docxText parses each part strictly: markup that escaped as XML would throw here.
      const text = docxParts(docx)
        .map((part) => docxText(docx, part))
        .join('\n');
      for (const value of expected) expect(text).toContain(value);
      const xml = new PizZip(docx).file('word/document.xml')?.asText() ?? '';
      expect(xml).not.toContain('<script>');
      expect(xml).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;w:t&gt;');
    });
  });

  describe('path traversal and overlong IDs', () => {
    const long = 'x'.repeat(10_000);
    const cases: [string, 'GET' | 'POST', (doc: string) => string, number, string][] = [
      ['match ID with ../', 'POST', () => '/backend/match/..%2F..%2Fetc%2Fpasswd', 400, 'invalid_input'],
      ['match ID as raw path segments', 'POST', () => '/backend/match/../../etc/passwd', 404, 'not_found'],
      ['match ID with an encoded slash', 'POST', () => '/backend/match/PL-1%2F..%2F', 400, 'invalid_input'],
      ['match ID with NUL', 'POST', () => '/backend/match/PL-1%00', 400, 'invalid_input'],
      ['match ID of 10 000 characters', 'POST', () => `/backend/match/${long}`, 414, 'uri_too_long'],
      ['match ID of 400 digits', 'POST', () => `/backend/match/PL-${'1'.repeat(400)}`, 400, 'invalid_input'],
      ['broken percent-encoding', 'POST', () => '/backend/match/PL-%E0%A4%A', 400, 'bad_request'],
      [
        'history of a match ID with NUL',
        'GET',
        () => '/backend/matches/PL-1%00/documents',
        400,
        'invalid_input',
      ],
      [
        'history of a 10 000 character ID',
        'GET',
        () => `/backend/matches/${long}/documents`,
        414,
        'uri_too_long',
      ],
      [
        'key naming a file outside the templates',
        'POST',
        () => `/backend/generateDocx/..%2F..%2Fpackage.json/${HOSTILE_ID}`,
        404,
        'not_found',
      ],
      [
        'key naming a template file',
        'POST',
        () => `/backend/generateDocx/${encodeURIComponent(catalogueTemplates()[0] ?? '')}/${HOSTILE_ID}`,
        404,
        'not_found',
      ],
      [
        'key with NUL',
        'POST',
        () => `/backend/generateDocx/docx-de-wm-rv%00/${HOSTILE_ID}`,
        404,
        'not_found',
      ],
      ['key ..', 'POST', () => `/backend/generateDocx/%2E%2E/${HOSTILE_ID}`, 404, 'not_found'],
      [
        'check of a key with ../',
        'POST',
        () => `/backend/documentCheck/..%2Fdocx-de-wm-rv/${HOSTILE_ID}`,
        404,
        'not_found',
      ],
      ['document ID with ../', 'GET', () => '/backend/documents/..%2F..%2Fetc%2Fpasswd', 404, 'not_found'],
      ['document ID with NUL', 'GET', (doc) => `/backend/documents/${doc}%00`, 404, 'not_found'],
      ['document ID of 10 000 characters', 'GET', () => `/backend/documents/${long}`, 414, 'uri_too_long'],
      [
        'version with NUL',
        'GET',
        (doc) => `/backend/documents/${doc}/versions/1%00/file`,
        400,
        'invalid_input',
      ],
      [
        'version with ../',
        'GET',
        (doc) => `/backend/documents/${doc}/versions/..%2F..%2F/file`,
        400,
        'invalid_input',
      ],
      [
        'version beyond any integer',
        'GET',
        (doc) => `/backend/documents/${doc}/versions/${'9'.repeat(30)}/file`,
        400,
        'invalid_input',
      ],
      [
        'envelope ID with ../',
        'GET',
        () => '/backend/signature/envelopes/..%2F..%2Fx/document',
        404,
        'not_found',
      ],
      ['envelope ID with NUL', 'GET', () => '/backend/signature/envelopes/%00', 404, 'not_found'],
    ];
    let documentId: string;

    beforeAll(async () => {
      documentId = String((await generateDocx('docx-de-wm-rv', demo.matchId)).headers['x-document-id']);
    });

    it.each(cases)('%s → %i', async (_name, method, url, status, error) => {
      const before = rendered.length;
      const response = await call(method, url(documentId), legal, method === 'POST' ? { payload: {} } : {});
      expectError(response, status, error);
      expect(rendered.length, 'no document was rendered').toBe(before);
    });

    it('never renders a template the catalogue does not name', () => {
      expect(rendered.length).toBeGreaterThan(0);
      expect(catalogueTemplates()).toEqual(expect.arrayContaining([...new Set(rendered)]));
    });
  });

  describe('bodies that are no request', () => {
    const routes = [
      { name: 'support report', url: '/backend/sendSupportEmail' },
      { name: 'generation', url: `/backend/generateDocx/docx-de-wm-rv/${HOSTILE_ID}` },
      { name: 'sign-in', url: '/backend/private/saveUser' },
      { name: 'signing', url: '/backend/signing/sign' },
    ];
    const bodies: [string, { headers: Record<string, string>; payload: string }, number, string][] = [
      ['malformed JSON', json('{"subject":'), 400, 'bad_request'],
      ['a JSON array', json('[]'), 400, 'invalid_input'],
      ['a JSON string', json('"Betreff"'), 400, 'invalid_input'],
      ['XML', { headers: { 'content-type': 'application/xml' }, payload: '<a/>' }, 415, 'bad_request'],
      [
        'an unknown type',
        { headers: { 'content-type': 'application/x-vertrag' }, payload: 'x' },
        415,
        'bad_request',
      ],
      ['a DOCX', { headers: { 'content-type': DOCX_MIME_TYPE }, payload: 'PK' }, 415, 'bad_request'],
    ];

    it.each(routes.flatMap((route) => bodies.map((body) => [route.name, ...body, route.url] as const)))(
      '%s with %s → %i',
      async (_route, _body, body, status, error, url) => {
        const response = await call('POST', url, legal, body);
        expectError(response, status, error);
      },
    );

    it('refuses text PostgreSQL cannot store with 400, not 500', async () => {
      const support = await call('POST', '/backend/sendSupportEmail', legal, {
        payload: { subject: 'Null\u0000byte', msgBody: 'Text' },
      });
      expectError(support, 400, 'invalid_input');
      const matchId = await call('POST', '/backend/sendSupportEmail', legal, {
        payload: { subject: 'Betreff', msgBody: 'Text', matchId: 'PL-\u0000' },
      });
      expect(matchId.statusCode, matchId.body).toBe(400);
    });
  });

  describe('signer links', () => {
    it('are 256 random bits, and a wrong one says nothing about whether an envelope exists', async () => {
      const entry = catalogueEntry('de-wm-pp-rv');
      if (!entry) throw new Error('de-wm-pp-rv');
      const created = await call('POST', `/backend/generateDocusign/de-wm-pp-rv/${demo.matchId}`, berater, {
        payload: { dataList: sampleDataList(entry, demo, signatories) },
      });
      const id = (created.json().data as string).split('/').pop();
      const view: EnvelopeView = (await call('GET', `/backend/signature/envelopes/${id}`, berater)).json();
      const send = await call('POST', `/backend/signature/envelopes/${id}/send`, berater, {
        payload: {
          subject: view.subject,
          message: '',
          recipients: [
            { role: 'Projektpartner', name: 'Paula', email: 'paula@partner.example', routingOrder: 1 },
          ],
        },
      });
      expect(send.statusCode, send.body).toBe(200);
      const link = await t.mailer.signingLink('paula@partner.example');
      // 32 bytes of randomBytes in base64url: 43 characters of 64 possible each.
      expect(link).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(
        (await call('GET', '/backend/signing', null, { headers: { 'x-signing-token': link } })).statusCode,
      ).toBe(200);

      const answers = await Promise.all(
        [
          'x',
          '../../etc/passwd',
          `${link}x`,
          link.slice(1),
          randomBytes(32).toString('base64url'),
          `${link.slice(0, -1)}${link.endsWith('A') ? 'B' : 'A'}`,
        ].map((token) => call('GET', '/backend/signing', null, { headers: { 'x-signing-token': token } })),
      );
      const [first] = answers;
      expectError(first as LightMyRequestResponse, 404, 'link_invalid');
      for (const answer of answers) {
        expect(answer.statusCode).toBe(first?.statusCode);
        expect(answer.body).toBe(first?.body);
      }
    });
  });
});

describe.each(testDatabases())('limits on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([demo]);
    t = await createTestApp(db, {
      demoStaff: true,
      env: { BODY_LIMIT_BYTES: '2048', RATE_LIMIT_PER_MINUTE: '3' },
    });
    legal = await t.signIn('legal@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const post = (url: string, payload: object | string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers: { ...bearer(legal), ...headers }, payload });

  it('refuses a body above BODY_LIMIT_BYTES with 413', async () => {
    const response = await post(`/backend/generateDocx/docx-de-wm-rv/${demo.matchId}`, {
      dataList: { vertragspartner_type: 'k', padding: 'x'.repeat(4096) },
    });
    expectError(response, 413, 'payload_too_large');
  });

  it('takes an edited DOCX above BODY_LIMIT_BYTES, up to its own limit of 20 MB', async () => {
    const generated = await post(`/backend/generateDocx/docx-de-wm-rv/${demo.matchId}`, {
      dataList: { vertragspartner_type: 'k' },
    });
    expect(generated.statusCode, generated.body).toBe(200);
    const id = String(generated.headers['x-document-id']);
    const put = (body: Buffer, token: string | null = legal) =>
      t.app.inject({
        method: 'PUT',
        url: `/backend/documents/${id}`,
        headers: { ...(token ? bearer(token) : {}), 'content-type': DOCX_MIME_TYPE, 'if-match': '"1"' },
        payload: body,
      });
    const docx = generated.rawPayload;
    expect(docx.byteLength).toBeGreaterThan(2048);
    expect((await put(docx)).statusCode).toBe(200);

    const oversized = Buffer.alloc(20 * 1024 * 1024 + 1);
    expectError(await put(oversized), 413, 'payload_too_large');
    // Without a session the upload is refused before its body is read.
    expectError(await put(oversized, null), 401, 'unauthorized');
  });

  it('limits support reports per client address', async () => {
    const statuses: number[] = [];
    let limited: LightMyRequestResponse | undefined;
    for (let i = 0; i < 5; i++) {
      const response = await post('/backend/sendSupportEmail', { subject: `Meldung ${i}`, msgBody: 'Text' });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) limited = response;
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(limited?.json()).toEqual({
      error: 'rate_limited',
      message: 'Zu viele Anfragen. Bitte warte einen Moment und versuche es dann erneut.',
    });
  });

  it('limits guessing signer links per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/backend/signing',
        headers: { 'x-signing-token': randomBytes(32).toString('base64url') },
        remoteAddress: '192.0.2.7',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
    // Another address is not affected by the guesses of the first.
    const other = await t.app.inject({
      method: 'GET',
      url: '/backend/signing',
      headers: { 'x-signing-token': 'x' },
      remoteAddress: '192.0.2.8',
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('sign-in of the embedded identity provider', () => {
  const PUBLIC_URL = 'http://localhost:8080';
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    const idpConfig = loadConfig(
      {
        PUBLIC_URL,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'vg-idp-')),
        WEB_DIST_DIR: join(tmpdir(), 'vg-no-web-build'),
        LOG_LEVEL: 'silent',
        RATE_LIMIT_PER_MINUTE: '3',
      },
      '0.0.0-test',
    );
    db = await pgliteTestDatabase.open();
    app = await composeApp(idpConfig, db, false);
  });
  afterAll(async () => {
    await app.close();
    await db.destroy();
  });

  it('limits password guesses per client address with 429 and a German message', async () => {
    const params = new URLSearchParams({
      client_id: loadConfig({ PUBLIC_URL }, '0').oidc.clientId,
      redirect_uri: `${PUBLIC_URL}/auth/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      state: 'state-1',
      nonce: 'nonce-1',
      code_challenge: randomBytes(32).toString('base64url'),
      code_challenge_method: 'S256',
    });
    const authorize = await app.inject({ method: 'GET', url: `/idp/auth?${params}` });
    expect(authorize.statusCode).toBe(303);
    const cookie = authorize.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const statuses: number[] = [];
    let limited: LightMyRequestResponse | undefined;
    for (let i = 0; i < 5; i++) {
      const response = await app.inject({
        method: 'POST',
        url: `${authorize.headers.location}/login`,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email: 'legal@demo.local', password: `falsch-${i}` }).toString(),
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) limited = response;
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(limited?.json().message).toMatch(/^Zu viele Anfragen/);
  });
});
