import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Batch,
  catalogueTemplates,
  DOCX_MIME_TYPE,
  type EnvelopeView,
  type SessionUser,
  type StoredDocument,
  type TemplateVersion,
} from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from './config/config.js';
import { type Db, openDatabase } from './db/database.js';
import { migrationProvider } from './db/migrations/index.js';
import { MatchStore } from './matches/match-store.js';
import { sha256Hex } from './shared/sha256.js';
import { createPostgresDatabase } from './test/databases.js';
import { demoDataList, demoMatch as match } from './test/demo-order.js';
import { docxText } from './test/docx-text.js';
import { eventually } from './test/eventually.js';
import { freePort } from './test/postgres-global-setup.js';
import { type ServerProcess, spawnServer, stopServer, waitHealthy } from './test/server-process.js';
import { editedTemplate } from './test/template-edit.js';

const OLD_TEXT = 'An dieses Angebot halten wir uns vier Wochen';
const NEW_TEXT = 'An dieses Angebot halten wir uns sechs Wochen';

/**
 * Several server processes behind a load balancer share one PostgreSQL and nothing else.
 * Two real processes of the built server (what the container image runs) start at the same moment on
 * an empty database, each with its own port and DATA_DIR, and the same PUBLIC_URL as behind a load
 * balancer; whatever one of them creates, the other one serves.
 */

const postgresUrl = inject('postgresUrl');

const { configDir, templatesDir } = loadConfig({}, '0');
const demoUsers = JSON.parse(readFileSync(join(configDir, 'demo-users.json'), 'utf8')) as unknown[];

/** A browser's cookie jar in front of a load balancer: every request may reach another process. */
class Browser {
  private readonly cookies = new Map<string, string>();

  async request(
    server: ServerProcess,
    method: 'GET' | 'POST',
    location: string,
    form?: Record<string, string>,
  ) {
    const url = new URL(location, server.url);
    const response = await fetch(`${server.url}${url.pathname}${url.search}`, {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }
}

async function redirectTarget(response: Response): Promise<string> {
  expect(response.status, await response.clone().text()).toBe(303);
  return response.headers.get('location') ?? '';
}

/**
 * The SPA's sign-in (authorization code with PKCE) at the embedded identity provider, each step on
 * the other process: the provider's interaction, session and code live in the database.
 */
async function signInAcross(a: ServerProcess, b: ServerProcess, publicUrl: string, email: string) {
  const browser = new Browser();
  const redirectUri = `${publicUrl}/auth/callback`;
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URLSearchParams({
    client_id: 'vertragsgenerator',
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    // Fresh as the SPA's: two sign-ins in one second must not get the same token (a logout ended its session).
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const interaction = await redirectTarget(await browser.request(a, 'GET', `/idp/auth?${authorize}`));
  const resume = await redirectTarget(
    await browser.request(b, 'POST', `${interaction}/login`, { email, password: 'demo' }),
  );
  const callback = new URL(await redirectTarget(await browser.request(a, 'GET', resume)));
  expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
  const token = await browser.request(b, 'POST', '/idp/token', {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code') ?? '',
    redirect_uri: redirectUri,
    client_id: 'vertragsgenerator',
    code_verifier: verifier,
  });
  expect(token.status).toBe(200);
  return ((await token.json()) as { id_token: string }).id_token;
}

function call(server: ServerProcess, method: 'GET' | 'POST', path: string, token: string, body?: unknown) {
  return fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
}

describe.skipIf(!postgresUrl)('two server processes against one PostgreSQL', () => {
  let databaseUrl: string;
  let a: ServerProcess;
  let b: ServerProcess;
  const dataDirs: string[] = [];
  let db: Db;
  let publicUrl: string;

  beforeAll(async () => {
    databaseUrl = await createPostgresDatabase(postgresUrl, 'vg_replicas');
    db = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2 });

    const [portA, portB] = [await freePort(), await freePort()];
    // Behind a load balancer every process knows the one public address: here A's.
    publicUrl = `http://127.0.0.1:${portA}`;
    const env = {
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: publicUrl,
      DEMO_DATA: 'true',
      RENDER_THREADS: '1',
      RATE_LIMIT_PER_MINUTE: '100000',
      LOG_LEVEL: 'warn',
    };
    // Each its own DATA_DIR, as on another machine: nothing on disk is shared.
    const replica = (name: string, port: number) => {
      const dataDir = mkdtempSync(join(tmpdir(), `vg-replica-${name}-`));
      dataDirs.push(dataDir);
      return spawnServer(name, 'build', { ...env, PORT: String(port), DATA_DIR: dataDir });
    };
    a = replica('A', portA);
    b = replica('B', portB);
    await Promise.all([waitHealthy(a), waitHealthy(b)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a, b].map((server) => stopServer(server)));
    await db?.destroy();
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  });

  it('start at the same moment on an empty database: every migration once, one set of keys, demo data once', async () => {
    const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const expected = Object.keys(await migrationProvider.getMigrations()).sort();
    expect(applied.rows.map((row) => row.name).sort()).toEqual(expected);

    const secrets = await db.selectFrom('idp_secrets').select('name').execute();
    expect(secrets.map((row) => row.name).sort()).toEqual(['cookie-keys', 'signing-keys']);
    const [jwksA, jwksB] = await Promise.all(
      [a, b].map(async (server) => (await fetch(`${server.url}/idp/jwks`)).json()),
    );
    expect(jwksA).toEqual(jwksB);

    const users = await db
      .selectFrom('users')
      .select(sql<number>`count(*)::int`.as('count'))
      .executeTakeFirst();
    expect(users?.count).toBe(demoUsers.length);

    // The template files became version 1 of each template once, published.
    const templates = await db.selectFrom('template_versions').select(['template', 'version']).execute();
    expect(templates.length).toBe(catalogueTemplates().length);
    expect(templates.every((row) => row.version === 1)).toBe(true);
  });

  it('signs in across both processes and shares the session, a document and an envelope', async () => {
    const token = await signInAcross(a, b, publicUrl, 'legal@demo.local');

    const saved = await call(a, 'POST', '/backend/private/saveUser', token, {});
    expect(saved.status).toBe(200);
    const verified = await call(b, 'POST', '/backend/private/verifyUser', token, {});
    expect(verified.status).toBe(200);
    expect((await verified.json()) as SessionUser).toMatchObject({
      email: 'legal@demo.local',
      permission: 2,
    });

    const docxKey = 'docx-de-wm-rv';
    const generated = await call(a, 'POST', `/backend/generateDocx/${docxKey}/${match.matchId}`, token, {
      dataList: demoDataList(docxKey),
    });
    expect(generated.status).toBe(200);
    const documentId = generated.headers.get('x-document-id') ?? '';
    const content = Buffer.from(await generated.arrayBuffer());
    const stored = await call(b, 'GET', `/backend/documents/${documentId}`, token);
    expect(stored.status).toBe(200);
    const document = (await stored.json()) as StoredDocument;
    expect(document).toMatchObject({ id: documentId, matchId: match.matchId, docKey: docxKey });
    expect(document.versions).toHaveLength(1);
    expect(document.versions[0]?.sha256).toBe(sha256Hex(content));
    const file = await call(b, 'GET', `/backend/documents/${documentId}/file`, token);
    expect(Buffer.from(await file.arrayBuffer()).equals(content)).toBe(true);

    const envelopeKey = 'de-wm-k-rv-1';
    const created = await call(
      a,
      'POST',
      `/backend/generateDocusign/${envelopeKey}/${match.matchId}`,
      token,
      {
        dataList: demoDataList(envelopeKey),
      },
    );
    expect(created.status).toBe(200);
    const senderView = ((await created.json()) as { data: string }).data;
    expect(senderView).toMatch(new RegExp(`^${publicUrl}/signatur/[0-9a-f-]{36}$`));
    const envelopeId = senderView.split('/').pop();
    const read = await call(b, 'GET', `/backend/signature/envelopes/${envelopeId}`, token);
    expect(read.status).toBe(200);
    const envelope = (await read.json()) as EnvelopeView;
    expect(envelope).toMatchObject({
      id: envelopeId,
      provider: 'builtin',
      status: 'created',
      matchId: match.matchId,
      docKey: envelopeKey,
      createdBy: 'legal@demo.local',
    });
    expect(envelope.recipients.map((recipient) => recipient.email)).toEqual(['kunde@demo.local']);

    // Logging out through one process ends the session for all of them.
    const loggedOut = await call(b, 'POST', '/backend/private/deleteUser/legal@demo.local', token, {});
    expect(loggedOut.status).toBe(200);
    expect((await call(a, 'POST', '/backend/private/verifyUser', token, {})).status).toBe(401);
  });

  it('renders in one process the template version published through the other', async () => {
    const token = await signInAcross(a, b, publicUrl, 'legal@demo.local');
    expect((await call(a, 'POST', '/backend/private/saveUser', token, {})).status).toBe(200);
    const offer = async (server: ServerProcess) => {
      const response = await call(
        server,
        'POST',
        `/backend/generateDocx/angebot-wm/${match.matchId}`,
        token,
        {
          dataList: demoDataList('angebot-wm'),
        },
      );
      expect(response.status).toBe(200);
      return docxText(Buffer.from(await response.arrayBuffer()));
    };
    // B has rendered (and parsed) the published version before A publishes another.
    expect(await offer(b)).toContain(OLD_TEXT);

    const changed = editedTemplate(readFileSync(join(templatesDir, 'angebot-de.docx')), [
      [OLD_TEXT, NEW_TEXT],
    ]);
    const uploaded = await fetch(
      `${a.url}/backend/templates/angebot-de.docx/versions?comment=sechs%20Wochen`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': DOCX_MIME_TYPE },
        body: changed,
      },
    );
    expect(uploaded.status).toBe(201);
    const { version } = (await uploaded.json()) as TemplateVersion;
    const published = await call(
      a,
      'POST',
      `/backend/templates/angebot-de.docx/versions/${version}/publish`,
      token,
      {
        comment: 'Bindefrist sechs Wochen',
        replaces: 1,
      },
    );
    expect(published.status).toBe(200);

    expect(await offer(b)).toContain(NEW_TEXT);
    expect(await offer(a)).toContain(NEW_TEXT);
  });

  it('shares the deals of two batches started on either process: each deal gets exactly one document, each envelope is sent once', async () => {
    const token = await signInAcross(a, b, publicUrl, 'legal@demo.local');
    expect((await call(a, 'POST', '/backend/private/saveUser', token, {})).status).toBe(200);
    const ids = Array.from({ length: 200 }, (_, i) => `PL-${60001 + i}`);
    await new MatchStore(db).upsertMany(
      ids.map((matchId, i) => ({
        matchId,
        kunde: `Kunde ${i} AG`,
        startdatum: '2027-01-04',
        enddatum: '2027-06-30',
        vk: 120,
        ek: 90,
      })),
    );
    // Two halves that overlap in no deal, checked on A and B and started at once on each: both processes'
    // runners lease from both batches, the older first. A's half are extensions, B's e-signature
    // contracts sent with their countersignatory.
    const [extensions, contractDeals] = [ids.slice(0, 100), ids.slice(100)];
    const options = (await (
      await call(b, 'GET', '/backend/batches/countersignature?docKey=de-wm-k-rv-1', token)
    ).json()) as { options: { id: string }[] };
    const contracts = [
      'Match-ID;Unterzeichner;Unterzeichner E-Mail',
      ...contractDeals.map((id) => `${id};Kim ${id};kim.${id.toLowerCase()}@kunde.example`),
    ];
    const requests = [
      {
        docKey: 'verlaengerung-de-wm-k',
        values: { neuesEnde: '2027-12-31' },
        matchIds: extensions.join('\n'),
      },
      {
        docKey: 'de-wm-k-rv-1',
        values: {},
        file: { name: 'vertraege.csv', content: Buffer.from(contracts.join('\n')).toString('base64') },
        send: { countersignatory: options.options[0]?.id, message: '' },
      },
    ];
    const batches = await Promise.all(
      requests.map(async (request, index) => {
        const server = index === 0 ? a : b;
        const checked = await call(server, 'POST', '/backend/batches', token, request);
        expect(checked.status).toBe(201);
        return { server, batch: (await checked.json()) as Batch };
      }),
    );
    await Promise.all(
      batches.map(async ({ server, batch }) =>
        expect((await call(server, 'POST', `/backend/batches/${batch.id}/start`, token)).status).toBe(200),
      ),
    );
    for (const { batch } of batches) {
      const done = await eventually(
        `batch ${batch.id} finished`,
        async () => {
          const read = (await (await call(b, 'GET', `/backend/batches/${batch.id}`, token)).json()) as Batch;
          return read.status === 'finished' ? read : undefined;
        },
        { withinMs: 60_000, intervalMs: 200 },
      );
      expect(done.counts).toMatchObject({ done: 100, failed: 0 });
    }
    const perDeal = await db
      .selectFrom('documents')
      .innerJoin('batch_items', 'batch_items.id', 'documents.batch_item_id')
      .select(['batch_items.match_id', sql<number>`count(*)::int`.as('documents')])
      .where(
        'batch_items.batch_id',
        'in',
        batches.map(({ batch }) => batch.id),
      )
      .groupBy('batch_items.match_id')
      .execute();
    expect(perDeal).toHaveLength(ids.length);
    expect(perDeal.filter((row) => row.documents !== 1)).toEqual([]);
    // B's deals: one envelope each, sent, with one invitation.
    const envelopes = await db
      .selectFrom('envelopes')
      .innerJoin('batch_items', 'batch_items.envelope_id', 'envelopes.id')
      .select(['envelopes.id', 'envelopes.status'])
      .where('batch_items.batch_id', '=', batches[1]?.batch.id ?? '')
      .execute();
    expect(envelopes).toHaveLength(100);
    expect(envelopes.filter((envelope) => envelope.status !== 'sent')).toEqual([]);
    const invitations = await db
      .selectFrom('outgoing_mail')
      .select(['reference', sql<number>`count(*)::int`.as('mails')])
      .where(
        'reference',
        'in',
        envelopes.map((envelope) => `envelope:${envelope.id}`),
      )
      .groupBy('reference')
      .execute();
    expect(invitations).toHaveLength(100);
    expect(invitations.filter((row) => row.mails !== 1)).toEqual([]);
    // Each batch finished once: one mail to its starter each.
    const mails = await db
      .selectFrom('outgoing_mail')
      .select('reference')
      .where(
        'reference',
        'in',
        batches.map(({ batch }) => `batch:${batch.id}`),
      )
      .execute();
    expect(mails).toHaveLength(2);
  });
});
