import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp } from '../compose.js';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { smallWebBuild } from '../test/every-operation-app.js';

/**
 * Uptime probes and link checkers ask with HEAD: the server as composed for production (the embedded
 * identity provider, a web build) answers it wherever it answers GET, with GET's status and headers.
 */
describe('HEAD beside GET', () => {
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    const config = loadConfig(
      {
        DATA_DIR: mkdtempSync(join(tmpdir(), 'vg-head-')),
        WEB_DIST_DIR: smallWebBuild(),
        LOG_LEVEL: 'silent',
      },
      '0.0.0-test',
    );
    db = await pgliteTestDatabase.open();
    app = await composeApp(config, db, false);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await db.destroy();
  });

  it.each([
    ['/', 200],
    ['/start', 200],
    ['/login', 200],
    ['/pruefen', 200],
    ['/dokumente/4f1c', 200],
    ['/assets/app-abc123.js', 200],
    ['/backend/health', 200],
    ['/backend/ready', 200],
    ['/backend/config', 200],
    ['/backend/users', 401],
    ['/backend/nichts', 404],
    ['/idp/.well-known/openid-configuration', 200],
    ['/idp/jwks', 200],
    ['/idp/interaction/unbekannt', 400],
  ] as const)('%s → %i', async (url, status) => {
    const get = await app.inject({ method: 'GET', url });
    expect(get.statusCode).toBe(status);
    const head = await app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(get.statusCode);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.body).toBe('');
  });
});
