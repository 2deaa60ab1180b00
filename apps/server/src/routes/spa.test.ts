import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

const INDEX_HTML =
  '<!doctype html><title>Vertragsgenerator</title><script src="/assets/app-abc123.js"></script>';
const SIGNING_HTML =
  '<!doctype html><title>Vertragsgenerator</title><script src="/assets/signing-ghi789.js"></script>';
const REVIEW_HTML =
  '<!doctype html><title>Vertragsprüfung</title><script src="/assets/review-jkl012.js"></script>';
const APP_JS = 'console.log("Vertragsgenerator");\n'.repeat(200);
const SMALL_JS = 'export const a = 1;';

/**
 * A build as apps/web/vite.config.ts writes it: .br and .gz beside each file, except where brotli
 * would not be smaller (the small chunk has only .gz). The compressed files hold other text than the
 * plain ones would decompress to only if the server picked the wrong file.
 */
function compressedWebBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vg-web-'));
  mkdirSync(join(dir, 'assets'));
  const write = (path: string, text: string, encodings: ('br' | 'gz')[]) => {
    writeFileSync(join(dir, path), text);
    if (encodings.includes('br')) writeFileSync(join(dir, `${path}.br`), brotliCompressSync(text));
    if (encodings.includes('gz')) writeFileSync(join(dir, `${path}.gz`), gzipSync(text));
  };
  write('index.html', INDEX_HTML, ['br', 'gz']);
  write('signing.html', SIGNING_HTML, ['br', 'gz']);
  write('review.html', REVIEW_HTML, ['br', 'gz']);
  write('assets/app-abc123.js', APP_JS, ['br', 'gz']);
  write('assets/small-def456.js', SMALL_JS, ['gz']);
  return dir;
}

const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

describe('the built SPA, precompressed', () => {
  let db: Db;
  let t: TestApp;

  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
    t = await createTestApp(db, { env: { WEB_DIST_DIR: compressedWebBuild() } });
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('answers a hashed asset in brotli when the browser accepts it, cached for a year', async () => {
    const response = await get('/assets/app-abc123.js', BROWSER_ENCODINGS);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.rawPayload.length).toBeLessThan(APP_JS.length);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(APP_JS);
  });

  it('answers gzip to a browser without brotli', async () => {
    const response = await get('/assets/app-abc123.js', 'gzip, deflate');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(response.rawPayload).toString()).toBe(APP_JS);
  });

  it('falls back to gzip where the build wrote no brotli file', async () => {
    const response = await get('/assets/small-def456.js', BROWSER_ENCODINGS);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toBe(SMALL_JS);
  });

  it('answers the plain file to a client that accepts no encoding, still varying by it', async () => {
    for (const acceptEncoding of [undefined, 'identity']) {
      const response = await get('/assets/app-abc123.js', acceptEncoding);
      expect(response.statusCode, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(response.headers.vary, acceptEncoding).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control'], acceptEncoding).toBe('public, max-age=31536000, immutable');
      expect(response.body, acceptEncoding).toBe(APP_JS);
    }
  });

  it('answers browser navigations with index.html, compressed and never cached', async () => {
    const compressed = await get('/start', BROWSER_ENCODINGS);
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['content-type']).toMatch(/^text\/html/);
    expect(compressed.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(INDEX_HTML);

    const plain = await get('/dokumente/4f1c', undefined);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body).toBe(INDEX_HTML);
  });

  it('answers the signing page of an e-mail link with its own entry, never cached', async () => {
    for (const url of ['/unterschreiben', '/unterschreiben/']) {
      const response = await get(url, BROWSER_ENCODINGS);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(SIGNING_HTML);
    }
    // Only that page: a path below or beside it is the app's.
    for (const url of ['/unterschreiben/mehr', '/unterschreibenx']) {
      expect((await get(url)).body, url).toBe(INDEX_HTML);
    }
  });

  it('answers the counterparty’s review page of an e-mail link with its own entry, never cached', async () => {
    for (const url of ['/vertragspruefung', '/vertragspruefung/', '/vertragspruefung?utm=mail']) {
      const response = await get(url, BROWSER_ENCODINGS);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(REVIEW_HTML);
    }
    // Only that page: a path below or beside it is the app's, and the signing page stays the signing page's.
    for (const url of ['/vertragspruefung/mehr', '/vertragspruefungen', '/reviews']) {
      expect((await get(url)).body, url).toBe(INDEX_HTML);
    }
    expect((await get('/unterschreiben')).body).toBe(SIGNING_HTML);
  });

  it('answers HEAD as GET, without the body: navigations, assets and unknown API paths', async () => {
    for (const url of [
      '/',
      '/start',
      '/login',
      '/unterschreiben',
      '/vertragspruefung',
      '/dokumente/4f1c',
      '/assets/app-abc123.js',
      '/backend/nichts',
    ]) {
      const get = await t.app.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': BROWSER_ENCODINGS },
      });
      const head = await t.app.inject({
        method: 'HEAD',
        url,
        headers: { 'accept-encoding': BROWSER_ENCODINGS },
      });
      expect(head.statusCode, url).toBe(get.statusCode);
      for (const header of ['content-type', 'content-encoding', 'cache-control']) {
        expect(head.headers[header], `${url} ${header}`).toBe(get.headers[header]);
      }
      expect(head.body, url).toBe('');
    }
    expect((await t.app.inject({ method: 'HEAD', url: '/start' })).statusCode).toBe(200);
  });

  it('does not serve the compressed files by their own address', async () => {
    for (const url of ['/assets/app-abc123.js.br', '/assets/app-abc123.js.gz', '/index.html.br']) {
      const response = await get(url, BROWSER_ENCODINGS);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ error: 'not_found', message: 'Diese Adresse gibt es nicht.' });
    }
  });
});
