import type { MatchRecord } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { UNKNOWN_MATCH_MESSAGE } from '../matches/match-lookup.js';
import { type MatchSource, MatchSourceUnavailableError } from '../matches/match-source.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { bearer, createTestApp, foreignKey, issueToken, type TestApp } from '../test/test-app.js';

const MATCHES: MatchRecord[] = [
  {
    matchId: 'PL-20001',
    kunde: 'Brückner & Söhne Maschinenbau GmbH & Co. KG',
    startdatum: '2027-01-04',
    kuendigungsfrist: '4 Wochen',
    tagessatzEk: 720,
    tagessatzRemote: '920,00',
    ek2: 98,
    tagessatzEk2: 780,
    tagessatzOnsite: 990,
    stundenProWoche: 40,
  },
  { matchId: 'PL-20002', kunde: 'Elbwerk Logistik AG', zahlungszielPP: '30 days' },
  { matchId: 'PL-20003', kunde: 'Isarblick Bank AG' },
];

describe.each(testDatabases())('match lookup on $name', (database) => {
  let db: Db;
  let t: TestApp;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany(MATCHES);
    t = await createTestApp(db, { demoStaff: true });
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const post = (url: string, headers: Record<string, string> = {}, app = t.app) =>
    app.inject({ method: 'POST', url, headers });

  describe('POST /backend/match/:matchId', () => {
    it('answers the match with its fallbacks resolved', async () => {
      const response = await post('/backend/match/PL-20001', bearer(await t.signIn('berater@demo.local')));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        matchId: 'PL-20001',
        kunde: 'Brückner & Söhne Maschinenbau GmbH & Co. KG',
        startdatum: '2027-01-04',
        kuendigungsfristKunde: '4 Wochen',
        ek: 720,
        vk: '920,00',
        ek2: 98,
        vk2: 990,
        stundenProWoche: 40,
      });
    });

    it.each([
      ['lowercase prefix', 'pl-20002'],
      ['no prefix', '20002'],
      ['surrounding spaces', '%20PL-20002%20'],
    ])('accepts an ID with %s', async (_case, id) => {
      const response = await post(`/backend/match/${id}`, bearer(await t.signIn('legal@demo.local')));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ matchId: 'PL-20002', kunde: 'Elbwerk Logistik AG' });
    });

    it('answers an unknown ID with 404 and the alert the browser shows', async () => {
      const response = await post('/backend/match/PL-99999', bearer(await t.signIn('berater@demo.local')));
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        error: 'not_found',
        message: 'Die Match-ID ist nicht korrekt. Bitte gib die ID erneut ein.',
      });
      expect(UNKNOWN_MATCH_MESSAGE).toBe(response.json().message);
    });

    it.each([
      ['empty', '', /leer/],
      ['only spaces', '%20%20', /leer/],
      ['only the prefix', 'PL-', /leer/],
      ['40 characters and more', `PL-${'1'.repeat(40)}`, /zu lang/],
      ['a path', '..%2F..%2Fetc%2Fpasswd', /nur Buchstaben, Ziffern/],
      ['a space inside', 'PL-200%2001', /nur Buchstaben, Ziffern/],
      ['other characters', 'PL-2000%3B1', /nur Buchstaben, Ziffern/],
    ])('refuses a malformed ID (%s) with 400 and a German message', async (_case, id, message) => {
      const response = await post(`/backend/match/${id}`, bearer(await t.signIn('berater@demo.local')));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'invalid_input',
        message: expect.stringMatching(message),
        fields: { matchId: [expect.stringMatching(message)] },
      });
    });
  });

  describe('POST /backend/match (most recent match)', () => {
    it('answers 204 before the user loaded a match, then the match loaded last', async () => {
      const token = await t.signIn('leitung@demo.local');
      expect((await post('/backend/match', bearer(token))).statusCode).toBe(204);

      await post('/backend/match/PL-20002', bearer(token));
      await post('/backend/match/pl-20001', bearer(token));
      await post('/backend/match/PL-99999', bearer(token));
      const recent = await post('/backend/match', bearer(token));
      expect(recent.statusCode).toBe(200);
      expect(recent.json()).toMatchObject({ matchId: 'PL-20001', ek: 720 });
    });

    it('is kept per user and survives a new sign-in', async () => {
      const legal = await t.signIn('legal@demo.local');
      const berater = await t.signIn('berater@demo.local');
      await post('/backend/match/PL-20003', bearer(legal));
      await post('/backend/match/PL-20002', bearer(berater));
      const again = await t.signIn('legal@demo.local');
      expect((await post('/backend/match', bearer(again))).json().matchId).toBe('PL-20003');
      expect((await post('/backend/match', bearer(berater))).json().matchId).toBe('PL-20002');
    });

    it('answers 204 when the recent match no longer exists', async () => {
      await new MatchStore(db).upsertMany([{ matchId: 'PL-20009' }]);
      const token = await t.signIn('leitung@demo.local');
      expect((await post('/backend/match/PL-20009', bearer(token))).statusCode).toBe(200);
      await db.deleteFrom('matches').where('match_id', '=', 'PL-20009').execute();
      const response = await post('/backend/match', bearer(token));
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    });
  });

  describe.each(['/backend/match/PL-20001', '/backend/match'])('who may call %s', (url) => {
    it('refuses a signed-in user without a permission level with 403', async () => {
      const response = await post(url, bearer(await t.signIn('neu@demo.local')));
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('forbidden');
    });

    it('refuses a request without a token with 401', async () => {
      const response = await post(url);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: 'unauthorized',
        message: expect.stringMatching(/angemeldet/),
      });
    });

    it('refuses a token signed by another key with 401', async () => {
      const forged = await issueToken({ email: 'legal@demo.local', key: (await foreignKey).privateKey });
      expect((await post(url, bearer(forged))).statusCode).toBe(401);
    });

    it('refuses a revoked session with 401', async () => {
      const token = await t.signIn('berater@demo.local');
      await t.sessions.revokeAll('berater@demo.local');
      expect((await post(url, bearer(token))).statusCode).toBe(401);
    });
  });

  describe('when the match source fails', () => {
    const failing = (error: Error): MatchSource => ({
      find: () => Promise.reject(error),
      findMany: () => Promise.reject(error),
    });

    it.each([
      ['an unreachable CRM', new MatchSourceUnavailableError('CRM timed out'), /Matches/],
      [
        'an unreachable database',
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
        /Datenbank/,
      ],
    ])('answers %s with 503', async (_case, error, message) => {
      const failingApp = await createTestApp(db, { matches: failing(error) });
      try {
        const token = await failingApp.signIn('legal@demo.local');
        const response = await post('/backend/match/PL-20001', bearer(token), failingApp.app);
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual({ error: 'unavailable', message: expect.stringMatching(message) });
      } finally {
        await failingApp.app.close();
      }
    });

    it('answers any other failure with 500, not with a wrong "unknown match"', async () => {
      const failingApp = await createTestApp(db, { matches: failing(new Error('mapping broken')) });
      try {
        const token = await failingApp.signIn('legal@demo.local');
        const response = await post('/backend/match/PL-20001', bearer(token), failingApp.app);
        expect(response.statusCode).toBe(500);
      } finally {
        await failingApp.app.close();
      }
    });
  });
});
