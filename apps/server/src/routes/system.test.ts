import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runtimeConfigSchema } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../app.js';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { pgliteTestDatabase, testDatabases } from '../test/databases.js';
import { bearer, createTestApp, issueToken, type TestApp } from '../test/test-app.js';

/** A stand-in for the built SPA: the fallback and caching rules do not depend on its content. */
function fakeWebBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vg-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Vertragsgenerator</title>');
  writeFileSync(join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  return dir;
}

describe.each(testDatabases())('public endpoints and HTTP hardening on $name', (database) => {
  let db: Db;
  let t: TestApp;

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, {
      env: { WEB_DIST_DIR: fakeWebBuild(), BODY_LIMIT_BYTES: '2048', RATE_LIMIT_PER_MINUTE: '3' },
    });
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  it('reports health with database reachability', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/backend/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'up' });
  });

  it('serves the runtime configuration without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/backend/config' });
    expect(response.statusCode).toBe(200);
    const config = runtimeConfigSchema.parse(response.json());
    expect(config.oidc.clientId).toBe('vertragsgenerator-test');
    expect(config.version).toBe('0.0.0-test');
  });

  it('sets security headers with a CSP that allows only own scripts', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/start' });
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
  });

  it('answers browser navigations with index.html (history fallback)', async () => {
    for (const path of ['/', '/login', '/start', '/contract/docusign', '/irgendwas/tief']) {
      const response = await t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html' } });
      expect(response.statusCode, path).toBe(200);
      expect(response.body, path).toContain('<title>Vertragsgenerator</title>');
      expect(response.headers['cache-control'], path).toBe('no-cache');
    }
  });

  it('caches hashed assets for a year and answers missing files with 404', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ method: 'GET', url: '/assets/fehlt.js' })).statusCode).toBe(404);
  });

  it('answers unknown API paths with a JSON 404, never the SPA', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/backend/gibtsnicht' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found', message: expect.any(String) });
  });

  it('refuses an oversized body with 413 and a German message', async () => {
    const token = await issueToken({ email: 'legal@demo.local' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/backend/private/saveUser',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: JSON.stringify({ padding: 'x'.repeat(4096) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      error: 'payload_too_large',
      message: 'Die Anfrage ist zu groß (höchstens 2 kB).',
    });
  });

  it('rate-limits the sign-in route with 429 and a German message', async () => {
    const token = await issueToken({ email: 'legal@demo.local' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/backend/private/saveUser',
        headers: { ...bearer(token), 'x-forwarded-for': '10.0.0.9' },
        remoteAddress: '10.0.0.9',
        payload: {},
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expect(response.json().message).toMatch(/Zu viele Anfragen/);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.slice(0, 2).every((s) => s !== 429)).toBe(true);
  });
});

describe('logs', () => {
  it('never contain a bearer token or a password, even at trace level', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const db = await pgliteTestDatabase.open();
    const config = loadConfig({ LOG_LEVEL: 'trace' }, 'test');
    const t = await createTestApp(db, { logger: { ...loggerOptions(config), stream } });
    const token = await issueToken({ email: 'legal@demo.local' });
    await t.app.inject({
      method: 'POST',
      url: '/backend/private/saveUser',
      headers: bearer(token),
      payload: {},
    });
    await t.app.inject({ method: 'POST', url: '/backend/private/verifyUser', headers: bearer(`${token}x`) });
    await t.app.close();
    await db.destroy();
    expect(lines.length).toBeGreaterThan(2);
    const log = lines.join('');
    expect(log).not.toContain(token.split('.')[2]);
  });
});
