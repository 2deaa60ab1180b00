import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import {
  bearer,
  createTestApp,
  foreignKey,
  issueToken,
  privateRoutes,
  type TestApp,
} from '../test/test-app.js';

/**
 * Public: the probes and runtime settings, the signer and reviewer pages (authorised by their link token) and the
 * sealed PDFs a webhook receiver and the HTTP CRM fetch (authorised by the endpoint's signature or the
 * write-back's token).
 */
const PUBLIC_PATHS = [
  '/backend/health',
  '/backend/config',
  '/backend/ready',
  '/backend/signing',
  '/backend/signing/document',
  '/backend/signing/document.pdf',
  '/backend/signing/sign',
  '/backend/signing/decline',
  '/backend/signing/code',
  '/backend/signing/verify',
  // The counterparty's review page, authorised by its link token (review-link.ts).
  '/backend/review',
  '/backend/review/code',
  '/backend/review/verify',
  '/backend/review/document',
  '/backend/review/comments',
  '/backend/review/return',
  '/backend/webhooks/envelopes/:envelopeId/sealed-pdf',
  '/backend/crm/envelopes/:envelopeId/sealed-pdf',
  // A calendar program fetches the feed with the personal token in its path (contract-calendar.ts).
  '/backend/calendar/:file',
];

describe.each(testDatabases())('identity and sessions on $name', (database) => {
  let db: Db;
  let t: TestApp;

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { demoStaff: true });
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const post = (url: string, token?: string, payload: unknown = {}) =>
    t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload: payload as object });

  describe('saveUser', () => {
    it('opens a session and answers the permission level', async () => {
      const token = await issueToken({ email: 'Legal@Demo.local', name: 'Lena Legal' });
      const saved = await post('/backend/private/saveUser', token);
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toEqual({
        administrator: false,
        email: 'legal@demo.local',
        name: 'Lena Legal',
        permission: 2,
        // The default rules name legal staff as approvers after the leaders.
        approver: true,
      });
      expect((await post('/backend/private/verifyUser', token)).statusCode).toBe(200);
    });

    it('records an unknown person without a permission level', async () => {
      const token = await issueToken({ email: 'fremd@example.org', name: 'Frieda Fremd' });
      const saved = await post('/backend/private/saveUser', token);
      expect(saved.json()).toEqual({
        administrator: false,
        email: 'fremd@example.org',
        name: 'Frieda Fremd',
        permission: null,
        approver: false,
      });
      expect(await t.users.find('fremd@example.org')).toEqual({
        email: 'fremd@example.org',
        name: 'Frieda Fremd',
        permission: null,
        administrator: false,
      });
    });

    it('refuses an email in the body that is not the token’s', async () => {
      const token = await issueToken({ email: 'berater@demo.local' });
      const response = await post('/backend/private/saveUser', token, { email: 'legal@demo.local' });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('forbidden');
    });

    it('refuses a malformed body with 400 and the failing field', async () => {
      const token = await issueToken({ email: 'berater@demo.local' });
      const response = await post('/backend/private/saveUser', token, { email: 'kein-mail' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_input', fields: { email: expect.any(Array) } });
    });

    it('refuses unparseable JSON with 400, not 500', async () => {
      const token = await issueToken({ email: 'berater@demo.local' });
      const response = await t.app.inject({
        method: 'POST',
        url: '/backend/private/saveUser',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: '{"email":',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/ungültig/);
    });
  });

  describe('verifyUser', () => {
    it('refuses a valid token that never opened a session', async () => {
      const token = await issueToken({ email: 'berater@demo.local' });
      expect((await post('/backend/private/verifyUser', token)).statusCode).toBe(401);
    });

    it('names the user and their level', async () => {
      const token = await t.signIn('berater@demo.local');
      const response = await post('/backend/private/verifyUser', token);
      expect(response.json()).toEqual({
        email: 'berater@demo.local',
        name: 'Berta Berater',
        permission: 1,
        administrator: false,
        approver: false,
      });
    });

    it('tells whether the approval rules now name the user as approver: leaders, legal staff, deputies', async () => {
      const approver = async (email: string) =>
        (await post('/backend/private/verifyUser', await t.signIn(email))).json().approver;
      expect(await approver('leitung@demo.local')).toBe(true);
      expect(await approver('legal@demo.local')).toBe(true);
      expect(await approver('anna.albrecht@demo.local')).toBe(false);
      // Deputies are named by an administrator.
      const ops = await t.signIn('ops@demo.local');
      const current = (
        await t.app.inject({ method: 'GET', url: '/backend/approval-rules', headers: bearer(ops) })
      ).json();
      const changed = await t.app.inject({
        method: 'PUT',
        url: '/backend/approval-rules',
        headers: bearer(ops),
        payload: {
          version: current.version,
          rules: {
            ...current.rules,
            approvers: { ...current.rules.approvers, order: ['leaders'] },
            deputies: ['anna.albrecht@demo.local'],
          },
        },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      // A consultant named deputy gets it; legal staff no longer in the order lose it; others stay without.
      expect(await approver('anna.albrecht@demo.local')).toBe(true);
      expect(await approver('legal@demo.local')).toBe(false);
      expect(await approver('leitung@demo.local')).toBe(true);
      expect(await approver('berater@demo.local')).toBe(false);
      const restored = await t.app.inject({
        method: 'PUT',
        url: '/backend/approval-rules',
        headers: bearer(ops),
        payload: { version: changed.json().version, rules: current.rules },
      });
      expect(restored.statusCode, restored.body).toBe(200);
    });
  });

  describe('getPermission', () => {
    it('answers the caller’s own level', async () => {
      const token = await t.signIn('legal@demo.local');
      const response = await post('/backend/private/getPermission/legal@demo.local', token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: 2 });
    });

    it('answers 204 for a user without a level', async () => {
      const token = await t.signIn('neu@demo.local');
      const response = await post('/backend/private/getPermission/neu@demo.local', token);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    });

    it('refuses another user’s email with 403', async () => {
      const token = await t.signIn('berater@demo.local');
      const response = await post('/backend/private/getPermission/legal@demo.local', token);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toMatch(/eigene/);
    });
  });

  describe('deleteUser (logout)', () => {
    it('revokes the session at once, and the token can never open one again', async () => {
      const token = await t.signIn('berater@demo.local');
      const other = await t.signIn('berater@demo.local'); // a second tab, signed in before the logout
      expect((await post('/backend/private/deleteUser/berater@demo.local', token)).statusCode).toBe(200);
      expect((await post('/backend/private/verifyUser', token)).statusCode).toBe(401);
      expect((await post('/backend/private/verifyUser', other)).statusCode).toBe(401);
      expect((await post('/backend/private/saveUser', token)).statusCode).toBe(401);
    });

    it('refuses a token issued before the logout that never had a session', async () => {
      const early = await issueToken({ email: 'legal@demo.local', issuedAt: -60 });
      const token = await t.signIn('legal@demo.local');
      await post('/backend/private/deleteUser/legal@demo.local', token);
      expect((await post('/backend/private/saveUser', early)).statusCode).toBe(401);
    });

    it('lets a new sign-in after the logout work', async () => {
      const token = await t.signIn('neu@demo.local');
      await post('/backend/private/deleteUser/neu@demo.local', token);
      const fresh = await issueToken({ email: 'neu@demo.local', issuedAt: 2 });
      expect((await post('/backend/private/saveUser', fresh)).statusCode).toBe(200);
      expect((await post('/backend/private/verifyUser', fresh)).statusCode).toBe(200);
    });

    it('keeps the permission record', async () => {
      const token = await t.signIn('legal@demo.local');
      await post('/backend/private/deleteUser/legal@demo.local', token);
      expect((await t.users.find('legal@demo.local'))?.permission).toBe(2);
    });

    it('refuses to sign out somebody else', async () => {
      const token = await t.signIn('berater@demo.local');
      expect((await post('/backend/private/deleteUser/legal@demo.local', token)).statusCode).toBe(403);
      expect((await post('/backend/private/verifyUser', token)).statusCode).toBe(200);
    });
  });

  describe('staff directory', () => {
    it('lists name and email sorted by name for staff', async () => {
      const token = await t.signIn('berater@demo.local');
      const response = await t.app.inject({ method: 'GET', url: '/backend/users', headers: bearer(token) });
      expect(response.statusCode).toBe(200);
      const list = response.json() as { Name: string; Email: string }[];
      expect(list).toContainEqual({ Name: 'Lena Legal', Email: 'legal@demo.local' });
      const names = list.map((u) => u.Name);
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : 1)));
    });

    it('is refused to a signed-in user without a permission level', async () => {
      const token = await t.signIn('neu@demo.local');
      const response = await t.app.inject({ method: 'GET', url: '/backend/users', headers: bearer(token) });
      expect(response.statusCode).toBe(403);
    });
  });

  describe('every private route refuses a bad token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const badTokens: [string, () => Promise<Record<string, string>>][] = [
      ['no Authorization header', async () => ({})],
      ['a scheme other than Bearer', async () => ({ authorization: `Basic ${btoa('a:b')}` })],
      ['a malformed token', async () => bearer('not.a.jwt')],
      ['an empty bearer', async () => ({ authorization: 'Bearer ' })],
      [
        'another issuer',
        async () => bearer(await issueToken({ email: 'legal@demo.local', issuer: 'https://evil.test' })),
      ],
      [
        'another audience',
        async () => bearer(await issueToken({ email: 'legal@demo.local', audience: 'other-app' })),
      ],
      [
        'an expired token',
        async () => bearer(await issueToken({ email: 'legal@demo.local', issuedAt: -7200, expiresIn: 3600 })),
      ],
      [
        'a forged signature',
        async () =>
          bearer(await issueToken({ email: 'legal@demo.local', key: (await foreignKey).privateKey })),
      ],
      [
        'an unsigned token (alg none)',
        async () => {
          const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
          const claims = {
            iss: 'https://idp.test.invalid',
            aud: 'vertragsgenerator-test',
            sub: 'x',
            email: 'legal@demo.local',
            iat: now,
            exp: now + 600,
          };
          return bearer(`${part({ alg: 'none' })}.${part(claims)}.`);
        },
      ],
      ['a token without email claim', async () => bearer(await issueToken({ email: '' }))],
      [
        'a revoked session',
        async () => {
          const token = await t.signIn('legal@demo.local');
          await post('/backend/private/deleteUser/legal@demo.local', token);
          return bearer(token);
        },
      ],
    ];

    it('covers the routes that exist', () => {
      const routes = privateRoutes(t.app, PUBLIC_PATHS);
      expect(routes.map((r) => `${r.method} ${r.url.split('/').slice(0, 4).join('/')}`)).toEqual(
        expect.arrayContaining([
          'POST /backend/private/saveUser',
          'POST /backend/private/verifyUser',
          'GET /backend/users',
          'GET /backend/signatories',
          'POST /backend/documentCheck/berater@demo.local',
          'POST /backend/generateDocusign/berater@demo.local',
          'GET /backend/signature/envelopes',
          'POST /backend/signature/envelopes',
          'GET /backend/matches/berater@demo.local',
          'GET /backend/documents/berater@demo.local',
          'PUT /backend/documents/berater@demo.local',
        ]),
      );
    });

    it.each(badTokens)('%s → 401 on every private route', async (_case, headers) => {
      const h = await headers();
      for (const route of privateRoutes(t.app, PUBLIC_PATHS)) {
        const response = await t.app.inject({
          method: route.method as 'GET',
          url: route.url,
          headers: h,
          payload: route.method === 'GET' ? undefined : {},
        });
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
        expect(response.json(), `${route.method} ${route.url}`).toEqual({
          error: 'unauthorized',
          message: expect.stringMatching(/angemeldet/),
        });
      }
    });
  });
});
