import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrate, openDatabase } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { demoDataList, demoMatch as match } from '../test/demo-order.js';
import { type PostgresServer, startPostgresServer } from '../test/postgres-global-setup.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const docxKey = 'docx-de-wm-rv';

// A server of its own: stopping the suite's shared one would fail every other database test.
const server: PostgresServer | undefined = await startPostgresServer();

/**
 * PostgreSQL goes away while the server runs (an operator restart, a failover): requests answer 503
 * with a German message instead of 500, the process survives the pool's dropped connections, and
 * once PostgreSQL is back the same app serves again without a restart.
 */
describe.skipIf(!server)('PostgreSQL stopped during use', () => {
  let db: Db;
  let t: TestApp;
  let legal: string;

  beforeAll(async () => {
    if (!server) return;
    db = await openDatabase({ kind: 'postgres', url: server.url, poolSize: 3 });
    await migrate(db);
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, { demoStaff: true });
    legal = await t.signIn('legal@demo.local');
  });
  afterAll(async () => {
    await t?.app.close();
    await db?.destroy();
    server?.remove();
  });

  const requests = {
    'match lookup': () =>
      t.app.inject({ method: 'POST', url: `/backend/match/${match.matchId}`, headers: bearer(legal) }),
    'users list': () => t.app.inject({ method: 'GET', url: '/backend/users', headers: bearer(legal) }),
    generation: () =>
      t.app.inject({
        method: 'POST',
        url: `/backend/generateDocx/${docxKey}/${match.matchId}`,
        headers: bearer(legal),
        payload: { dataList: demoDataList(docxKey) },
      }),
  };

  it('answers 503 with a German message while it is down, and serves again once it is back', async () => {
    for (const [name, request] of Object.entries(requests)) {
      expect((await request()).statusCode, name).toBe(200);
    }

    // The pool now holds idle connections that the shutdown terminates: without a listener for the
    // pool's 'error' event, Node would end the process here.
    server?.stop();
    for (const [name, request] of Object.entries(requests)) {
      const response = await request();
      expect(response.statusCode, name).toBe(503);
      expect(response.json(), name).toEqual({
        error: 'unavailable',
        message: 'Die Datenbank ist gerade nicht erreichbar. Bitte versuche es in einem Moment erneut.',
      });
    }
    expect((await t.app.inject({ method: 'GET', url: '/backend/health' })).statusCode).toBe(503);

    server?.start();
    for (const [name, request] of Object.entries(requests)) {
      expect((await request()).statusCode, name).toBe(200);
    }
    const health = await t.app.inject({ method: 'GET', url: '/backend/health' });
    expect(health.statusCode).toBe(200);
  });
});
