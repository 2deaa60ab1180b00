import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp } from '../compose.js';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { pgliteTestDatabase } from '../test/databases.js';

/**
 * An external OpenID Connect provider (as Google or Entra ID) reached over HTTP: configuration alone
 * switches the app to it, keys come from its discovery document.
 */
describe('external OpenID Connect issuer', () => {
  let issuerServer: Server;
  let issuer: string;
  const available = true;
  let db: Db;
  let app: FastifyInstance;
  const keys = generateKeyPair('RS256');

  beforeAll(async () => {
    const jwk = { ...(await exportJWK((await keys).publicKey)), kid: 'ext-1', alg: 'RS256', use: 'sig' };
    issuerServer = createServer((req, res) => {
      if (!available) {
        res.writeHead(503).end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      if (req.url === '/.well-known/openid-configuration') {
        res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
      } else if (req.url === '/jwks') {
        res.end(JSON.stringify({ keys: [jwk] }));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
    db = await pgliteTestDatabase.open();
    const config = loadConfig(
      {
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: 'corp-client',
        OIDC_PROVIDER_NAME: 'Firmen-SSO',
        OIDC_EMAIL_CLAIM: 'preferred_username',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'vg-ext-')),
        WEB_DIST_DIR: join(tmpdir(), 'vg-no-web-build'),
        LOG_LEVEL: 'silent',
      },
      'test',
    );
    app = await composeApp(config, db, false);
  });
  afterAll(async () => {
    await app.close();
    await db.destroy();
    issuerServer.close();
  });

  const token = async (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'ext-1' })
      .setIssuer(issuer)
      .setAudience('corp-client')
      .setSubject('00u1')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign((await keys).privateKey);

  const saveUser = async (idToken: string) =>
    app.inject({
      method: 'POST',
      url: '/backend/private/saveUser',
      headers: { authorization: `Bearer ${idToken}` },
      payload: {},
    });

  it('serves no embedded provider and tells the SPA whom to ask', async () => {
    expect(
      (await app.inject({ method: 'GET', url: '/idp/.well-known/openid-configuration' })).statusCode,
    ).toBe(404);
    const config = (await app.inject({ method: 'GET', url: '/backend/config' })).json();
    expect(config.oidc).toMatchObject({
      authority: issuer,
      clientId: 'corp-client',
      providerName: 'Firmen-SSO',
    });
  });

  it('accepts its tokens, reading the e-mail from the configured claim', async () => {
    const response = await saveUser(
      await token({ preferred_username: 'Kim.Kurz@Firma.example', name: 'Kim Kurz' }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      email: 'kim.kurz@firma.example',
      name: 'Kim Kurz',
      permission: null,
      administrator: false,
      approver: false,
    });
  });

  it('creates no demo accounts', async () => {
    expect(
      await db.selectFrom('users').select('email').where('email', 'like', '%@demo.local').execute(),
    ).toEqual([]);
  });
});

describe('external issuer unreachable at the first request', () => {
  it('answers 503 with a German message, not 500, and recovers once it is back', async () => {
    let up = false;
    const keyPair = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(keyPair.publicKey)), kid: 'k', alg: 'RS256' };
    let issuer = '';
    const server = createServer((req, res) => {
      if (!up) return void res.writeHead(502).end();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(req.url === '/jwks' ? { keys: [jwk] } : { issuer, jwks_uri: `${issuer}/jwks` }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const db = await pgliteTestDatabase.open();
    const config = loadConfig(
      {
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: 'c',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'vg-ext-')),
        LOG_LEVEL: 'silent',
      },
      'test',
    );
    const app = await composeApp(config, db, false);
    try {
      const idToken = await new SignJWT({ email: 'a@b.de' })
        .setProtectedHeader({ alg: 'RS256', kid: 'k' })
        .setIssuer(issuer)
        .setAudience('c')
        .setSubject('a')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(keyPair.privateKey);
      const request = () =>
        app.inject({
          method: 'POST',
          url: '/backend/private/saveUser',
          headers: { authorization: `Bearer ${idToken}` },
          payload: {},
        });
      const down = await request();
      expect(down.statusCode).toBe(503);
      expect(down.json().message).toMatch(/Anmeldedienst ist gerade nicht erreichbar/);
      up = true;
      expect((await request()).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.destroy();
      server.close();
    }
  });
});
