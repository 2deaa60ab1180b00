import { readFile } from 'node:fs/promises';
import type { ApiClient, ApiClientCreated, AuditEntryView } from '@vertragsgenerator/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { sha256Hex } from '../shared/sha256.js';
import { staffAddresses } from '../signature/mail-parties.js';
import { testDatabases } from '../test/databases.js';
import { demoDataList, demoMatch } from '../test/demo-order.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const OPS = 'ops@demo.local';
const DAY_MS = 24 * 60 * 60 * 1000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
const README = new URL('../../../../README.md', import.meta.url);

/** The one `curl` of README.md, read as a shell reads it: method, address, headers and body. */
async function readmeCurl() {
  const commands = [...(await readFile(README, 'utf8')).matchAll(/^curl (?:.*\\\n)*.*$/gm)];
  expect(commands).toHaveLength(1);
  const words = (commands[0]?.[0] ?? '')
    .replace(/\\\n/g, ' ')
    .match(/'[^']*'|"[^"]*"|\S+/g)
    ?.map((word) => word.replace(/^(['"])(.*)\1$/, '$2')) as string[];
  const curl = { method: 'GET', url: '', headers: {} as Record<string, string>, data: '' };
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as string;
    const value = words[i + 1] ?? '';
    if (word === '-X') curl.method = value;
    else if (word === '-H') {
      const [name = '', ...rest] = value.split(':');
      curl.headers[name.trim().toLowerCase()] = rest.join(':').trim();
    } else if (word === '-d') curl.data = value;
    else if (word !== '-o') {
      curl.url = word;
      continue;
    }
    // A flag's value is the next word (`-o` names the file curl saves the answer in).
    i++;
  }
  return curl;
}

describe.each(testDatabases())('API clients on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let ops: string;
  let legal: string;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([demoMatch]);
    t = await createTestApp(db, { demoStaff: true, env: { API_CLIENT_REQUESTS_PER_MINUTE: '20' } });
    ops = await t.signIn(OPS);
    legal = await t.signIn('legal@demo.local');
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const create = (payload: object, token = ops) =>
    t.app.inject({ method: 'POST', url: '/backend/admin/api-clients', headers: bearer(token), payload });
  const created = async (name: string, permission: number, expiresOn = day(30)) => {
    const response = await create({ name, permission, expiresOn });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ApiClientCreated>();
  };
  const list = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/backend/admin/api-clients',
      headers: bearer(ops),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ApiClient[]>();
  };
  const audit = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/backend/admin/audit?limit=200',
      headers: bearer(ops),
    });
    return response.json<{ entries: AuditEntryView[] }>().entries;
  };
  const generateContract = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/generateDocx/docx-de-wm-rv/${demoMatch.matchId}`,
      headers: bearer(token),
      payload: { dataList: demoDataList('docx-de-wm-rv') },
    });

  it('lives from creation through use to revocation: shown once, stored as a hash, each call audited', async () => {
    const { client, token } = await created('CRM Vertragsbutton', 2);
    expect(token).toMatch(/^vg_[A-Za-z0-9_-]{43}$/);
    expect(client).toMatchObject({
      name: 'CRM Vertragsbutton',
      permission: 2,
      createdBy: OPS,
      lastUsedAt: null,
    });
    expect(token.startsWith(client.tokenHint.replace('…', ''))).toBe(true);

    // Only the hash is kept: neither the table nor the list holds the token.
    const rows = await db.selectFrom('api_clients').selectAll().execute();
    expect(rows.map((r) => r.token_hash)).toEqual([sha256Hex(token)]);
    expect(JSON.stringify(rows)).not.toContain(token.slice(3));
    expect(JSON.stringify(await list())).not.toContain(token.slice(3));

    const generated = await generateContract(token);
    expect(generated.statusCode, generated.body).toBe(200);
    expect(generated.headers['content-type']).toContain('wordprocessingml');
    const documentId = String(generated.headers['x-document-id']);
    const stored = await t.app.inject({
      method: 'GET',
      url: `/backend/documents/${documentId}`,
      headers: bearer(legal),
    });
    expect(stored.statusCode, stored.body).toBe(200);

    // The audit entry and the last use are written once the answer is out.
    await vi.waitFor(async () => {
      const call = (await audit()).find((e) => e.action === 'api.call');
      expect(call).toMatchObject({
        actor: 'api:CRM Vertragsbutton',
        subject: `POST /backend/generateDocx/docx-de-wm-rv/${demoMatch.matchId}`,
        newValue: '200',
      });
      expect((await list()).find((c) => c.id === client.id)?.lastUsedAt).not.toBeNull();
    });
    expect((await audit()).find((e) => e.action === 'api-client.create')).toMatchObject({
      actor: OPS,
      subject: 'CRM Vertragsbutton',
    });

    const revoked = await t.app.inject({
      method: 'POST',
      url: `/backend/admin/api-clients/${client.id}/revoke`,
      headers: bearer(ops),
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json<ApiClient>()).toMatchObject({ revokedBy: OPS });
    const refused = await generateContract(token);
    expect(refused.statusCode, refused.body).toBe(401);
    expect(refused.json()).toEqual({ error: 'unauthorized', message: 'Dieser API-Zugang wurde widerrufen.' });
    expect((await audit()).find((e) => e.action === 'api-client.revoke')).toMatchObject({
      actor: OPS,
      subject: 'CRM Vertragsbutton',
    });
  });

  it('expires at the end of its last day', async () => {
    const { token } = await created('Skript Ablauf', 1, day(0));
    const users = () => t.app.inject({ method: 'GET', url: '/backend/users', headers: bearer(token) });
    expect((await users()).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(`${day(0)}T23:59:59Z`));
    expect((await users()).statusCode).toBe(200);
    vi.setSystemTime(Date.parse(`${day(0)}T00:00:00Z`) + DAY_MS);
    const expired = await users();
    expect(expired.statusCode, expired.body).toBe(401);
    expect(expired.json()).toMatchObject({ message: 'Dieser API-Zugang ist abgelaufen.' });
  });

  it('acts with its level only: a consultant client may not generate what only legal staff may', async () => {
    const { token } = await created('CRM Berater', 1);
    const refused = await generateContract(token);
    expect(refused.statusCode, refused.body).toBe(403);
    const partner = await t.app.inject({
      method: 'POST',
      url: `/backend/documentCheck/de-wm-pp-rv/${demoMatch.matchId}`,
      headers: bearer(token),
      payload: {},
    });
    expect(partner.statusCode, partner.body).toBe(200);
  });

  it('generates the offer of the README’s curl example with a client of level 3', async () => {
    const { token } = await created('CRM Angebotsknopf', 3);
    const curl = await readmeCurl();
    const url = new URL(curl.url);
    expect(url.pathname).toBe(`/backend/generateDocxOffer/angebot-wm/${demoMatch.matchId}`);
    const offer = await t.app.inject({
      method: curl.method as 'POST',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(
        Object.entries(curl.headers).map(([name, value]) => [name, value.replace('$VG_TOKEN', token)]),
      ),
      payload: curl.data,
    });
    expect(offer.statusCode, offer.body).toBe(200);
    expect(offer.headers['content-type']).toContain('officedocument.wordprocessingml');
    expect(offer.headers['x-document-id']).toBeTruthy();
  });

  it('creates an envelope under its name, and no mail is ever addressed to that name', async () => {
    const { token } = await created('CRM Vertragsknopf', 1);
    const envelope = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/de-wm-pp-rv/${demoMatch.matchId}`,
      headers: bearer(token),
      payload: { dataList: demoDataList('de-wm-pp-rv') },
    });
    expect(envelope.statusCode, envelope.body).toBe(200);
    const row = await db
      .selectFrom('envelopes')
      .select(['created_by', 'sender_email'])
      .executeTakeFirstOrThrow();
    expect(row.created_by).toBe('api:CRM Vertragsknopf');
    expect(staffAddresses(row)).toEqual([row.sender_email]);
  });

  it('is refused on the administrators’ routes, a person’s session routes and the signers’ routes', async () => {
    const { token } = await created('CRM Leitung', 3);
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
    for (const [method, url, payload] of [
      ['GET', '/backend/admin/api-clients'],
      ['POST', '/backend/admin/api-clients', { name: 'Selbst', permission: 3, expiresOn: day(5) }],
      ['GET', '/backend/admin/staff'],
      ['GET', '/backend/admin/audit'],
      ['POST', '/backend/private/saveUser', {}],
      ['POST', '/backend/private/verifyUser', {}],
      ['GET', '/backend/docs'],
    ] as const) {
      const response = await call(method, url, payload);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
      expect(response.json()).toMatchObject({ error: 'forbidden' });
    }
    // The signer routes know only link tokens: a client's bearer token opens no envelope.
    const signing = await call('GET', '/backend/signing');
    expect(signing.statusCode, signing.body).toBe(404);
    expect(await db.selectFrom('api_clients').select('name').where('name', '=', 'Selbst').execute()).toEqual(
      [],
    );
  });

  it('limits each client on its own to its calls per minute, with a German 429', async () => {
    const busy = await created('Eiliger Dienst', 1);
    const calm = await created('Ruhiger Dienst', 1);
    const users = (token: string) =>
      t.app.inject({ method: 'GET', url: '/backend/users', headers: bearer(token) });
    for (let i = 0; i < 20; i++) expect((await users(busy.token)).statusCode).toBe(200);
    const limited = await users(busy.token);
    expect(limited.statusCode, limited.body).toBe(429);
    expect(limited.json()).toMatchObject({ error: 'rate_limited' });
    expect(limited.json().message).toMatch(
      /^Dieser API-Zugang hat mehr als 20 Anfragen in einer Minute gestellt/,
    );
    expect((await users(calm.token)).statusCode).toBe(200);
    // A person is not counted against any client.
    const person = await t.app.inject({ method: 'GET', url: '/backend/users', headers: bearer(legal) });
    expect(person.statusCode).toBe(200);
  });

  it('refuses bad input with German messages and leaves the clients to administrators', async () => {
    const noName = await create({ name: '  ', permission: 2, expiresOn: day(3) });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().fields).toMatchObject({ name: ['Bitte gib einen Namen an.'] });
    const past = await create({ name: 'Gestern', permission: 2, expiresOn: day(-1) });
    expect(past.statusCode).toBe(400);
    expect(past.json().fields).toEqual({ expiresOn: ['Das Ablaufdatum muss heute oder später sein.'] });
    const tooLong = await create({ name: 'Ewig', permission: 2, expiresOn: day(1000) });
    expect(tooLong.statusCode).toBe(400);
    const level = await create({ name: 'Stufe vier', permission: 4, expiresOn: day(3) });
    expect(level.statusCode).toBe(400);
    expect(level.json().fields).toHaveProperty('permission');
    await created('Doppelt', 2);
    const twice = await create({ name: 'Doppelt', permission: 1, expiresOn: day(3) });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ message: 'Einen API-Zugang mit diesem Namen gibt es schon.' });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/backend/admin/api-clients/5f0c1d9e-7a52-4c39-9e0e-2f6a1b3c4d5e/revoke',
      headers: bearer(ops),
    });
    expect(unknown.statusCode).toBe(404);
    const byLegal = await create({ name: 'Von Legal', permission: 2, expiresOn: day(3) }, legal);
    expect(byLegal.statusCode).toBe(403);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/backend/users',
      headers: bearer(`vg_${'A'.repeat(43)}`),
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ message: 'Dieser API-Zugang ist unbekannt.' });
  });
});
