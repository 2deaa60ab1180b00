import type { ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { createRendererPool } from '../templates/renderer.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { demoDataList, demoMatch as match } from '../test/demo-order.js';
import { CRASH_MARKER, HANG_MARKER } from '../test/faulty-render-worker.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const docxKey = 'docx-de-wm-rv';

/**
 * Matches whose task description makes the test worker crash or hang. Each has lines no other match
 * has, so that its data is of a shape the renderer has not laid out yet and goes to a worker thread;
 * after each, another new shape shows that the pool's fresh thread lays it out.
 */
const crashing: ResolvedMatch = {
  ...match,
  matchId: 'PL-90001',
  aufgabenbeschreibung: `${CRASH_MARKER}\nzweite Zeile`,
};
const hanging: ResolvedMatch = {
  ...match,
  matchId: 'PL-90002',
  aufgabenbeschreibung: `${HANG_MARKER}\nzweite Zeile\ndritte Zeile`,
};
const afterCrash: ResolvedMatch = { ...match, matchId: 'PL-90003', aufgabenbeschreibung: 'a\n\nb' };
const afterHang: ResolvedMatch = { ...match, matchId: 'PL-90004', aufgabenbeschreibung: 'a\n\n\nb' };
/** The crash marker in data of the shape the first document laid out: filled without a worker thread. */
const crashingTextOfKnownShape: ResolvedMatch = {
  ...match,
  matchId: 'PL-90005',
  aufgabenbeschreibung: `${CRASH_MARKER} in einer Zeile`,
};
// Generous: a fresh worker thread that loads the sources through tsx takes seconds on a busy machine,
// and the deadline counts from submission.
const TASK_TIMEOUT_MS = 5_000;

/**
 * A render worker thread that dies or hangs: the request of that document fails with a 503 and a
 * German message, the document is recorded as failed, and the pool's fresh worker renders the next one.
 */
describe('a render worker that crashes or hangs', () => {
  let db: Db;
  let t: TestApp;
  let legal: string;

  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
    await new MatchStore(db).upsertMany([
      match,
      crashing,
      hanging,
      afterCrash,
      afterHang,
      crashingTextOfKnownShape,
    ]);
    const renderer = createRendererPool({
      threads: 1,
      taskTimeoutMs: TASK_TIMEOUT_MS,
      worker: new URL('../test/faulty-render-worker.ts', import.meta.url),
    });
    t = await createTestApp(db, { renderer, demoStaff: true });
    legal = await t.signIn('legal@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const generate = (matchId: string) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/generateDocx/${docxKey}/${matchId}`,
      headers: bearer(legal),
      payload: { dataList: demoDataList(docxKey) },
    });

  const statusOf = async (matchId: string) =>
    (await db.selectFrom('documents').select('status').where('match_id', '=', matchId).execute()).map(
      (row) => row.status,
    );

  it('renders normally through the wrapping worker', async () => {
    expect((await generate(match.matchId)).statusCode).toBe(200);
  });

  it('fills a document of a shape laid out before in the server, without a worker thread', async () => {
    const filled = await generate(crashingTextOfKnownShape.matchId);
    expect(filled.statusCode, filled.body).toBe(200);
    expect(await statusOf(crashingTextOfKnownShape.matchId)).toEqual(['ready']);
  });

  it.each([
    ['crashes', crashing, afterCrash],
    ['hangs', hanging, afterHang],
  ])('answers 503 when the worker %s, and the next document renders', async (_fault, faulty, next) => {
    const started = Date.now();
    const failed = await generate(faulty.matchId);
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toEqual({
      error: 'unavailable',
      message: 'Das Dokument konnte gerade nicht erstellt werden. Bitte versuche es in einem Moment erneut.',
    });
    // A hang ends at the task's deadline, not at the client's patience.
    expect(Date.now() - started).toBeLessThan(TASK_TIMEOUT_MS + 5_000);
    // What the user submitted is on record, marked failed, never half stored.
    expect(await statusOf(faulty.matchId)).toEqual(['failed']);

    const rendered = await generate(next.matchId);
    expect(rendered.statusCode, rendered.body).toBe(200);
    expect(rendered.headers['content-type']).toContain('wordprocessingml');
  });
});
