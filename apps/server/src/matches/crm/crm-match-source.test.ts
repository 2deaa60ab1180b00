import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { composeApp } from '../../compose.js';
import { ConfigError, type CrmConfig, type Env, loadConfig } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { pgliteTestDatabase, testDatabases } from '../../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.js';
import { CrmMatchCache } from './crm-cache.js';
import { CRM_UNAVAILABLE_MESSAGE, CrmMatchSource, createCrmMatchSource } from './crm-match-source.js';
import { HttpCrmClient } from './http-crm-client.js';
import { parseCrmMapping } from './mapping.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A CRM on 127.0.0.1 whose answer each test sets; it records every request it gets. */
class FakeCrm {
  readonly requests: IncomingMessage[] = [];
  handle: Handler = (_request, response) => response.writeHead(404).end();
  private readonly server: Server = createServer((request, response) => {
    this.requests.push(request);
    this.handle(request, response);
  });

  async start(): Promise<void> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers in turn; the last one repeats. */
  answer(...answers: [status: number, body?: unknown][]): void {
    let next = 0;
    this.handle = (_request, response) => {
      const [status, body] = answers[Math.min(next++, answers.length - 1)] ?? [500];
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
    };
  }

  /** Never answers, as a CRM stuck behind a load balancer. */
  hang(): void {
    this.handle = () => {};
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
  }
}

const MAPPING = parseCrmMapping(
  {
    matchId: 'match.id',
    fields: {
      kunde: { path: 'match.customer.name', required: true },
      startdatum: { path: 'match.start', format: 'date' },
      ek: { path: 'match.rates[0].buy', format: 'number' },
    },
  },
  'test mapping',
);

const crmMatch = (id: string, customer = 'Elbwerk Logistik AG') => ({
  match: { id, customer: { name: customer }, start: '04.01.2027', rates: [{ buy: '92,50' }] },
});

// Generous for answers on a busy machine; the timeout test uses its own short one.
const TIMEOUT_MS = 2_000;
const SHORT_TIMEOUT_MS = 300;
const RETRY = { retries: 2, backoffMs: 10 };

function httpSource(fake: FakeCrm, timeoutMs = TIMEOUT_MS) {
  return new HttpCrmClient({
    url: `${fake.url}/api/matches/{matchId}?expand=all`,
    auth: { kind: 'bearer', token: 'crm-secret' },
    timeoutMs,
  });
}

describe('HttpCrmClient', () => {
  const fake = new FakeCrm();
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
  });

  it('sends the bearer token and the URL-encoded ID', async () => {
    fake.answer([200, crmMatch('PL-1')]);
    await expect(httpSource(fake).fetchRecord('PL-a/b c?')).resolves.toEqual(crmMatch('PL-1'));
    expect(fake.requests[0]?.url).toBe('/api/matches/PL-a%2Fb%20c%3F?expand=all');
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer crm-secret');
    expect(fake.requests[0]?.headers.accept).toBe('application/json');
  });

  it('sends user and password as basic authentication', async () => {
    fake.answer([200, crmMatch('PL-1')]);
    const client = new HttpCrmClient({
      url: `${fake.url}/m/{matchId}`,
      auth: { kind: 'basic', user: 'vertrag', password: 'pass:wort' },
      timeoutMs: TIMEOUT_MS,
    });
    await client.fetchRecord('PL-1');
    expect(fake.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('vertrag:pass:wort').toString('base64')}`,
    );
  });

  it('has no bulk request (docs/crm.md): findMany sends one GET per ID, at most 4 at a time', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    fake.handle = (request, response) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const matchId = decodeURIComponent(request.url?.split('/')[3]?.split('?')[0] ?? '');
      setTimeout(() => {
        inFlight--;
        if (matchId === 'PL-13') response.writeHead(404).end();
        else
          response
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify(crmMatch(matchId)));
      }, 10);
    };
    const client = httpSource(fake);
    expect('fetchRecords' in client).toBe(false);
    const ids = Array.from({ length: 20 }, (_, n) => `PL-${n + 1}`);
    const found = await new CrmMatchSource(client, MAPPING, RETRY).findMany([...ids, 'PL-1']);
    expect(fake.requests.map((request) => request.url).sort()).toEqual(
      ids.map((id) => `/api/matches/${id}?expand=all`).sort(),
    );
    expect(maxInFlight).toBe(4);
    expect(found.get('PL-20')).toMatchObject({ matchId: 'PL-20', kunde: 'Elbwerk Logistik AG' });
    expect(found.get('PL-13')).toBeUndefined();
  });
});

describe.each(testDatabases())('CRM as match source on $name', (database) => {
  const fake = new FakeCrm();
  let db: Db;
  let t: TestApp;
  let cached: TestApp;
  let token: string;
  const logLines: string[] = [];
  let standardSource: CrmMatchSource;
  let source: CrmMatchSource;

  beforeAll(async () => {
    await fake.start();
    standardSource = new CrmMatchSource(httpSource(fake), MAPPING, RETRY);
    source = standardSource;
    db = await database.open();
    const logger = { level: 'warn', stream: { write: (line: string) => logLines.push(line) } };
    t = await createTestApp(db, {
      demoStaff: true,
      logger,
      // The timeout test swaps in a source with a short timeout; the app stays the same.
      matches: {
        find: (matchId, log) => source.find(matchId, log),
        findMany: (matchIds, log) => source.findMany(matchIds, log),
      },
    });
    cached = await createTestApp(db, {
      // Without retries, a lookup left running after its cached answer sends no request a later test sees.
      matches: new CrmMatchSource(
        httpSource(fake),
        MAPPING,
        { retries: 0, backoffMs: 10 },
        {
          store: new CrmMatchCache(db),
          maxAgeSeconds: 600,
          firstDeadlineMs: 100,
        },
      ),
    });
    token = await t.signIn('berater@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await cached.app.close();
    await db.destroy();
    await fake.stop();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    logLines.length = 0;
    source = standardSource;
  });

  const lookup = (id: string, app = t.app) =>
    app.inject({ method: 'POST', url: `/backend/match/${id}`, headers: bearer(token) });

  it('answers POST /backend/match/:matchId with the mapped CRM record', async () => {
    fake.answer([200, crmMatch('PL-10001')]);
    const response = await lookup('10001');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      matchId: 'PL-10001',
      kunde: 'Elbwerk Logistik AG',
      startdatum: '2027-01-04',
      ek: 92.5,
    });
    expect(fake.requests.map((request) => request.url)).toEqual(['/api/matches/PL-10001?expand=all']);
  });

  it('answers an ID the CRM does not know with 404 and the message of a wrong ID', async () => {
    fake.answer([404, { error: 'not found' }]);
    const response = await lookup('PL-99999');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: 'not_found',
      message: 'Die Match-ID ist nicht korrekt. Bitte gib die ID erneut ein.',
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('takes an answer for another match as "unknown"', async () => {
    fake.answer([200, crmMatch('PL-10002')]);
    expect((await lookup('PL-10001')).statusCode).toBe(404);
  });

  it('retries after a 500 and answers with the record of the next attempt', async () => {
    fake.answer([500, { error: 'busy' }], [200, crmMatch('PL-10001', 'Nach Neustart AG')]);
    const response = await lookup('PL-10001');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ kunde: 'Nach Neustart AG' });
    expect(fake.requests).toHaveLength(2);
  });

  it('answers 503 "CRM nicht erreichbar" when every attempt fails', async () => {
    fake.answer([503, { error: 'maintenance' }]);
    const response = await lookup('PL-10001');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'unavailable', message: CRM_UNAVAILABLE_MESSAGE });
    expect(CRM_UNAVAILABLE_MESSAGE).toMatch(/^CRM nicht erreichbar/);
    expect(fake.requests).toHaveLength(1 + RETRY.retries);
  });

  it('does not retry a refusal (4xx) and answers 503', async () => {
    fake.answer([401, { error: 'bad token' }]);
    const response = await lookup('PL-10001');
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe(CRM_UNAVAILABLE_MESSAGE);
    expect(fake.requests).toHaveLength(1);
  });

  it('gives up on a CRM that never answers within the bounded time, and keeps serving', async () => {
    fake.hang();
    source = new CrmMatchSource(httpSource(fake, SHORT_TIMEOUT_MS), MAPPING, RETRY);
    const started = performance.now();
    const response = await lookup('PL-10001');
    const elapsed = performance.now() - started;
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe(CRM_UNAVAILABLE_MESSAGE);
    expect(fake.requests).toHaveLength(1 + RETRY.retries);
    // Three attempts of 300 ms and backoffs of 10 + 20 ms, with room for a busy machine.
    expect(elapsed).toBeGreaterThanOrEqual(3 * SHORT_TIMEOUT_MS);
    expect(elapsed).toBeLessThan(3 * SHORT_TIMEOUT_MS + 1_500);

    fake.answer([200, crmMatch('PL-10001')]);
    expect((await lookup('PL-10001')).statusCode).toBe(200);
  });

  it('answers an unreadable record with 502 and logs field and path', async () => {
    fake.answer([200, { match: { id: 'PL-10001', customer: {}, start: 'bald' } }]);
    const response = await lookup('PL-10001');
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      error: 'bad_gateway',
      message:
        'Das CRM hat für diesen Match Daten geliefert, die nicht gelesen werden können (Feld „kunde“: Pflichtfeld fehlt). Bitte korrigiere den Match im CRM und gib die ID erneut ein.',
    });
    expect(logLines.join('\n')).toContain('field kunde (path match.customer.name)');
  });

  describe('with the cache', () => {
    const stored = async (matchId: string) =>
      db
        .selectFrom('crm_match_cache')
        .select(['record', 'fetched_at'])
        .where('match_id', '=', matchId)
        .executeTakeFirst();

    it('stores every answer and answers from it, marked, while the CRM is down', async () => {
      fake.answer([200, crmMatch('PL-30001', 'Gespeichert AG')]);
      expect((await lookup('PL-30001', cached.app)).statusCode).toBe(200);
      const row = await stored('PL-30001');
      expect(row?.record).toMatchObject({ kunde: 'Gespeichert AG' });

      fake.answer([500, {}]);
      const response = await lookup('PL-30001', cached.app);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        matchId: 'PL-30001',
        kunde: 'Gespeichert AG',
        startdatum: '2027-01-04',
        ek: 92.5,
        cachedAt: row?.fetched_at.toISOString(),
      });
    });

    it('answers from it after the short first deadline when the CRM is slow', async () => {
      fake.answer([200, crmMatch('PL-30002', 'Schnell AG')]);
      await lookup('PL-30002', cached.app);
      fake.hang();
      const started = performance.now();
      const response = await lookup('PL-30002', cached.app);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ kunde: 'Schnell AG', cachedAt: expect.any(String) });
      // The 100 ms first deadline, not the 2 s timeout.
      expect(performance.now() - started).toBeLessThan(1_000);
    });

    it('answers a fresh CRM record unmarked', async () => {
      fake.answer([200, crmMatch('PL-30003', 'Alt AG')], [200, crmMatch('PL-30003', 'Neu AG')]);
      await lookup('PL-30003', cached.app);
      const response = await lookup('PL-30003', cached.app);
      expect(response.json()).toEqual(expect.objectContaining({ kunde: 'Neu AG' }));
      expect(response.json()).not.toHaveProperty('cachedAt');
      expect((await stored('PL-30003'))?.record).toMatchObject({ kunde: 'Neu AG' });
    });

    it('does not answer with a record older than CRM_CACHE_SECONDS', async () => {
      fake.answer([200, crmMatch('PL-30004')]);
      await lookup('PL-30004', cached.app);
      await db
        .updateTable('crm_match_cache')
        .set({ fetched_at: new Date(Date.now() - 601_000) })
        .where('match_id', '=', 'PL-30004')
        .execute();
      fake.answer([500, {}]);
      const response = await lookup('PL-30004', cached.app);
      expect(response.statusCode).toBe(503);
      expect(response.json().message).toBe(CRM_UNAVAILABLE_MESSAGE);
    });
  });
});

describe('createCrmMatchSource', () => {
  const config = (mappingFile: string): CrmConfig => ({
    kind: 'http',
    url: 'http://127.0.0.1:9/{matchId}',
    auth: undefined,
    mappingFile,
    timeoutMs: 1000,
    retries: 0,
    cacheSeconds: 0,
  });

  it('stops the start on an invalid mapping, naming field and path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vg-crm-'));
    const file = join(dir, 'mapping.json');
    writeFileSync(
      file,
      JSON.stringify({ matchId: 'id', fields: { enddatum: { path: 'ende[', format: 'date' } } }),
    );
    const failure = createCrmMatchSource(config(file), {} as Db);
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow('fields.enddatum.path ("ende[")');
  });
});

describe('composeApp with a CRM', () => {
  const env = (mappingFile: string): Env => ({
    CRM_URL: 'http://127.0.0.1:9/matches/{matchId}',
    CRM_MAPPING_FILE: mappingFile,
    DEMO_DATA: 'true',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'vg-crm-compose-')),
    WEB_DIST_DIR: join(tmpdir(), 'vg-no-web-build'),
    LOG_LEVEL: 'silent',
    RENDER_THREADS: '1',
  });
  let db: Db;
  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
  });
  afterAll(() => db.destroy());

  it('seeds the demo staff but no demo matches into the unused built-in store', async () => {
    const mapping = new URL('../../../../../config/crm-mapping.example.json', import.meta.url).pathname;
    const app = await composeApp(loadConfig(env(mapping), '0.0.0-test'), db, false);
    await app.close();
    expect(await db.selectFrom('matches').select('match_id').execute()).toEqual([]);
    expect((await db.selectFrom('users').select('email').execute()).length).toBeGreaterThan(0);
  });

  it('does not start with a mapping it cannot use', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vg-crm-'));
    const file = join(dir, 'mapping.json');
    writeFileSync(file, JSON.stringify({ matchId: 'id', fields: { Kunde: 'customer.name' } }));
    await expect(composeApp(loadConfig(env(file), '0.0.0-test'), db, false)).rejects.toThrow(
      /Unrecognized key: "Kunde"/,
    );
  });
});
