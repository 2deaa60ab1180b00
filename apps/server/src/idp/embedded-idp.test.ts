import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp } from '../compose.js';
import { DRIVE_SCOPES, loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';

const PUBLIC_URL = 'http://localhost:8080';
const REDIRECT_URI = `${PUBLIC_URL}/auth/callback`;

const config = loadConfig(
  {
    PUBLIC_URL,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'vg-idp-')),
    WEB_DIST_DIR: join(tmpdir(), 'vg-no-web-build'),
    LOG_LEVEL: 'silent',
  },
  '0.0.0-test',
);

/** A browser's cookie jar, reduced to what the sign-in needs. */
class Browser {
  private cookies = new Map<string, string>();
  constructor(private readonly app: FastifyInstance) {}

  async request(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string>,
  ): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method,
      url: url.replace(PUBLIC_URL, ''),
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      payload: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const cookie of response.cookies) this.cookies.set(cookie.name, cookie.value);
    return response;
  }
}

/** Authorization code flow with PKCE, as oidc-client-ts runs it in the popup. */
async function startSignIn(browser: Browser, scope = 'openid email profile') {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const params = new URLSearchParams({
    client_id: config.oidc.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope,
    state: 'state-123',
    nonce: 'nonce-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const authorize = await browser.request('GET', `/idp/auth?${params}`);
  expect(authorize.statusCode).toBe(303);
  return { verifier, interactionUrl: authorize.headers.location as string };
}

async function signIn(browser: Browser, email: string, password: string, scope?: string) {
  const { verifier, interactionUrl } = await startSignIn(browser, scope);
  const login = await browser.request('POST', `${interactionUrl}/login`, { email, password });
  expect(login.statusCode).toBe(303);
  const resume = await browser.request('GET', login.headers.location as string);
  const callback = new URL(resume.headers.location as string);
  expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
  expect(callback.searchParams.get('state')).toBe('state-123');
  const token = await browser.request('POST', '/idp/token', {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code') ?? '',
    redirect_uri: REDIRECT_URI,
    client_id: config.oidc.clientId,
    code_verifier: verifier,
  });
  expect(token.statusCode).toBe(200);
  return token.json() as { id_token: string; access_token: string; scope: string };
}

describe.each(testDatabases())('embedded identity provider on $name', (database) => {
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    db = await database.open();
    app = await composeApp(config, db, false);
  });
  afterAll(async () => {
    await app.close();
    await db.destroy();
  });

  it('shows the German sign-in page', async () => {
    const browser = new Browser(app);
    const { interactionUrl } = await startSignIn(browser);
    const page = await browser.request('GET', interactionUrl);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('<label for="email">E-Mail</label>');
    expect(page.body).toContain('<label for="password">Passwort</label>');
    expect(page.body).toContain('>Anmelden</button>');
    expect(page.body).not.toContain('<script');
  });

  it('refuses wrong credentials with a German message and keeps the e-mail', async () => {
    const browser = new Browser(app);
    const { interactionUrl } = await startSignIn(browser);
    for (const [email, password] of [
      ['legal@demo.local', 'falsch'],
      ['niemand@demo.local', 'demo'],
      ['', ''],
    ]) {
      const page = await browser.request('POST', `${interactionUrl}/login`, {
        email: email ?? '',
        password: password ?? '',
      });
      expect(page.statusCode).toBe(401);
      expect(page.body).toContain('E-Mail oder Passwort ist falsch');
      expect(page.body).toContain(`value="${email}"`);
    }
  });

  it('escapes what the user typed', async () => {
    const browser = new Browser(app);
    const { interactionUrl } = await startSignIn(browser);
    const page = await browser.request('POST', `${interactionUrl}/login`, {
      email: '"><script>x</script>',
      password: 'x',
    });
    expect(page.body).not.toContain('<script>x');
    expect(page.body).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('issues an ID token with e-mail and name that opens a session', async () => {
    const { id_token: idToken } = await signIn(new Browser(app), 'legal@demo.local', 'demo');
    const claims = decodeJwt(idToken);
    expect(claims).toMatchObject({
      iss: `${PUBLIC_URL}/idp`,
      aud: config.oidc.clientId,
      email: 'legal@demo.local',
      name: 'Lena Legal',
      nonce: 'nonce-123',
    });
    const saved = await app.inject({
      method: 'POST',
      url: '/backend/private/saveUser',
      headers: { authorization: `Bearer ${idToken}` },
      payload: {},
    });
    expect(saved.json()).toEqual({
      email: 'legal@demo.local',
      name: 'Lena Legal',
      permission: 2,
      administrator: false,
      // Legal staff approve under the default rules.
      approver: true,
    });
  });

  it('keeps its signing keys across a restart: tokens stay valid', async () => {
    const { id_token: idToken } = await signIn(new Browser(app), 'berater@demo.local', 'demo');
    const restarted = await composeApp(config, db, false);
    try {
      const saved = await restarted.inject({
        method: 'POST',
        url: '/backend/private/saveUser',
        headers: { authorization: `Bearer ${idToken}` },
        payload: {},
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().permission).toBe(1);
    } finally {
      await restarted.close();
    }
  });

  it("grants the Drive scopes of EDITOR=google: its access token stands in for Google's", async () => {
    const scope = ['openid email profile', ...DRIVE_SCOPES].join(' ');
    const tokens = await signIn(new Browser(app), 'legal@demo.local', 'demo', scope);
    expect(tokens.scope.split(' ')).toEqual(expect.arrayContaining(DRIVE_SCOPES));
    const userinfo = await app.inject({
      method: 'GET',
      url: '/idp/me',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(userinfo.statusCode).toBe(200);
    expect(userinfo.json()).toMatchObject({ sub: 'legal@demo.local' });
  });

  it('answers an expired or unknown interaction with a German page, not a crash', async () => {
    const page = await new Browser(app).request('GET', '/idp/interaction/unbekannt');
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('Die Anmeldung ist abgelaufen');
  });

  it('refuses an authorization request for a foreign redirect URI', async () => {
    const params = new URLSearchParams({
      client_id: config.oidc.clientId,
      redirect_uri: 'https://evil.example/cb',
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    const response = await new Browser(app).request('GET', `/idp/auth?${params}`);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Anmeldeanfrage ist ungültig');
  });
});
