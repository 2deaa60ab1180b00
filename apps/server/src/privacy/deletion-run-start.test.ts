import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import type { AuthGuards } from '../http/guards.js';
import { useSchemasAsDescription } from '../http/openapi.js';
import { testDatabases } from '../test/databases.js';
import type { AppContext } from '../wiring/app-context.js';
import { registerPrivacy } from '../wiring/privacy.js';
import { storeDocument } from './fixtures.js';

const MINUTE = 60_000;

/**
 * The deletion run is wired to start about a minute after the server is ready and then to be looked at
 * hourly, running when the last finished run is a day old: with a controlled clock, nothing runs before
 * the minute, the first run deletes what is due, the hourly look starts none before a day has passed.
 */
describe.each(testDatabases())('the deletion run’s start on $name', (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(() => db.destroy());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a minute after the start, then once a day from the hourly look', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'Date'],
      now: new Date('2030-06-15T12:00:00Z'),
    });
    const failed = await storeDocument(db, {
      matchId: 'PL-95',
      createdAt: new Date('2030-01-01T00:00:00Z'),
      status: 'failed',
    });
    const app = Fastify();
    useSchemasAsDescription(app);
    const config = loadConfig(
      {
        OIDC_ISSUER: 'https://issuer.example',
        OIDC_CLIENT_ID: 'vg',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'vg-start-')),
        LOG_LEVEL: 'silent',
      },
      '0.0.0-test',
    );
    // The routes are not called here: a guard that lets nothing through is enough to register them.
    const guards = new Proxy({}, { get: () => () => async () => undefined }) as unknown as AuthGuards;
    const context = {
      app,
      deps: { config, db, matches: { find: async () => undefined } },
      guards,
      audit: new AuditLog(db),
      metrics: undefined,
    } as unknown as AppContext;
    const area = await registerPrivacy(context);
    await app.ready();
    const runs = async () => (await db.selectFrom('retention_runs').select('id').execute()).length;
    const finishedRuns = async () =>
      (await db.selectFrom('retention_runs').select('id').where('finished_at', 'is not', null).execute())
        .length;
    const documentLeft = async () =>
      (await db.selectFrom('documents').select('id').where('id', '=', failed).execute()).length;

    await vi.advanceTimersByTimeAsync(MINUTE - 1_000);
    expect(await runs()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitUntil(async () => (await finishedRuns()) === 1, { interval: 10 });
    expect(await documentLeft()).toBe(0);

    const [hourly] = area.jobs;
    expect(hourly?.every).toBe(60 * MINUTE);
    vi.setSystemTime(new Date('2030-06-15T13:01:00Z'));
    expect(await hourly?.run()).toBeUndefined();
    expect(await runs()).toBe(1);
    vi.setSystemTime(new Date('2030-06-16T12:02:00Z'));
    expect(await hourly?.run()).toEqual({});
    expect(await runs()).toBe(2);
    for (const stop of area.stop) await stop();
    await app.close();
  });
});
