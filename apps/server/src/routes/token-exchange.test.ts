import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

const SECRET = 'google-client-secret';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The issuer's token endpoint as Google runs it for "Web application" clients: no secret, no tokens. */
function fakeTokenEndpoint() {
  const received: URLSearchParams[] = [];
  let failWith: number | undefined;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      received.push(form);
      response.setHeader('content-type', 'application/json; charset=utf-8');
      if (failWith) {
        response.statusCode = failWith;
        return response.end('{"error":"server_error"}');
      }
      if (form.get('client_secret') !== SECRET) {
        response.statusCode = 400;
        return response.end(
          JSON.stringify({ error: 'invalid_request', error_description: 'client_secret is missing.' }),
        );
      }
      if (form.get('code') !== 'good-code' || form.get('code_verifier') !== 'verifier') {
        response.statusCode = 400;
        return response.end(JSON.stringify({ error: 'invalid_grant', error_description: 'Bad Request' }));
      }
      response.end(
        JSON.stringify({ id_token: 'header.payload.signature', access_token: 'ya29', expires_in: 3599 }),
      );
    });
  });
  return {
    received,
    failNext: (status: number | undefined) => {
      failWith = status;
    },
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('code exchange completed with the client secret (OIDC_CLIENT_SECRET)', () => {
  let db: Db;
  let t: TestApp;
  const issuer = fakeTokenEndpoint();
  let discoverable = true;

  beforeAll(async () => {
    const tokenEndpoint = await issuer.start();
    db = await pgliteTestDatabase.open();
    t = await createTestApp(db, {
      env: { OIDC_CLIENT_SECRET: SECRET },
      discoverIssuer: async () => {
        if (!discoverable) throw new Error('discovery unreachable');
        return { jwksUri: 'http://127.0.0.1:1/jwks', tokenEndpoint };
      },
    });
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
    await issuer.close();
  });

  const exchange = (form: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/backend/auth/token',
      headers: FORM,
      payload: new URLSearchParams(form).toString(),
    });
  const codeGrant = {
    grant_type: 'authorization_code',
    client_id: 'vertragsgenerator-test',
    code: 'good-code',
    code_verifier: 'verifier',
    redirect_uri: 'http://localhost:8080/auth/callback',
  };

  it('tells the web app to exchange its code here, never the secret itself', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/backend/config' });
    expect(response.json().oidc.tokenEndpoint).toBe('/backend/auth/token');
    expect(response.body).not.toContain(SECRET);
  });

  it('passes the browser’s code exchange on with the client secret and answers the issuer’s tokens', async () => {
    const response = await exchange(codeGrant);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      id_token: 'header.payload.signature',
      access_token: 'ya29',
      expires_in: 3599,
    });
    expect(response.headers['cache-control']).toBe('no-store');
    const sent = issuer.received.at(-1);
    expect(Object.fromEntries(sent ?? [])).toEqual({ ...codeGrant, client_secret: SECRET });
  });

  it('answers the issuer’s refusal as the OAuth error the sign-in library understands', async () => {
    const response = await exchange({ ...codeGrant, code: 'stolen-code' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'invalid_grant', error_description: 'Bad Request' });
  });

  it('refuses other grants and other clients without asking the issuer', async () => {
    const before = issuer.received.length;
    const refused: Record<string, string>[] = [
      { grant_type: 'password', username: 'a', password: 'b' },
      { grant_type: 'client_credentials' },
      { ...codeGrant, client_id: 'another-client' },
    ];
    for (const form of refused) {
      const response = await exchange(form);
      expect(response.statusCode, JSON.stringify(form)).toBe(400);
      expect(response.json()).toEqual({
        error: 'invalid_request',
        message: 'Diese Anfrage gehört nicht zur Anmeldung.',
      });
    }
    expect(issuer.received.length).toBe(before);
  });

  it('answers 503 with a German message when the issuer fails or cannot be discovered', async () => {
    issuer.failNext(502);
    const failing = await exchange(codeGrant);
    issuer.failNext(undefined);
    expect(failing.statusCode).toBe(503);
    expect(failing.json().message).toMatch(/Anmeldung ist gerade nicht erreichbar/);

    discoverable = false;
    const undiscovered = await exchange(codeGrant);
    discoverable = true;
    expect(undiscovered.statusCode).toBe(503);
    // A passing failure: the next attempt discovers again and succeeds.
    expect((await exchange(codeGrant)).statusCode).toBe(200);
  });
});

describe('without a client secret', () => {
  it('has no exchange route and sends the browser to the issuer itself', async () => {
    const db = await pgliteTestDatabase.open();
    const t = await createTestApp(db);
    try {
      expect((await t.app.inject({ method: 'GET', url: '/backend/config' })).json().oidc).not.toHaveProperty(
        'tokenEndpoint',
      );
      const response = await t.app.inject({
        method: 'POST',
        url: '/backend/auth/token',
        headers: FORM,
        payload: 'grant_type=authorization_code&code=x',
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await t.app.close();
      await db.destroy();
    }
  });
});
