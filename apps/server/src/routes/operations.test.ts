import { spawnSync } from 'node:child_process';
import { readinessSchema } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { MailOutbox } from '../mail/mail-outbox.js';
import { MatchStore } from '../matches/match-store.js';
import { checkReadiness, ServerLifecycle } from '../operations/readiness.js';
import type { Renderer } from '../templates/renderer.js';
import { pgliteTestDatabase, testDatabases } from '../test/databases.js';
import { demoDataList, demoMatch } from '../test/demo-order.js';
import { bearer, createTestApp, issueToken, RecordingMailer, type TestApp } from '../test/test-app.js';

const METRICS_TOKEN = 'scraper-token-of-the-operations-test';
const docxKey = 'docx-de-wm-rv';

/** The value of one series in the Prometheus text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(testDatabases())('readiness and metrics on $name', (database) => {
  let db: Db;
  let t: TestApp;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([demoMatch]);
    t = await createTestApp(db, { env: { METRICS_TOKEN }, demoStaff: true });
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const scrape = () =>
    t.app.inject({ method: 'GET', url: '/backend/metrics', headers: bearer(METRICS_TOKEN) });

  it('is ready while serving, and reports the render threads and the waiting mail', async () => {
    await new MailOutbox(db, new RecordingMailer(), 'support@example.com').enqueue([
      { to: 'wartet@example.com', subject: 'Wartet', text: 'noch nicht versandt' },
    ]);
    const response = await t.app.inject({ method: 'GET', url: '/backend/ready' });
    expect(response.statusCode).toBe(200);
    const readiness = readinessSchema.parse(response.json());
    expect(readiness).toMatchObject({
      status: 'ready',
      database: 'up',
      renderer: { status: 'up', pending: 0 },
      outbox: { status: 'up', waiting: 1 },
    });
    expect(readiness.outbox.oldestWaitingSeconds).toBeGreaterThanOrEqual(0);
  });

  it('refuses the metrics without the token, with a wrong one and with a staff ID token, naming none', async () => {
    const staff = await t.signIn('legal@demo.local');
    for (const headers of [{}, bearer('ein-falsches-token-fuer-metriken'), bearer(staff)]) {
      const response = await t.app.inject({ method: 'GET', url: '/backend/metrics', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'unauthorized' });
      expect(response.body).not.toContain('http_request');
      expect(response.body).not.toContain('documents_generated');
    }
  });

  it('counts sign-ins, generated documents by family, requests by route, envelopes and process figures', async () => {
    const before = (await scrape()).body;
    const signedIn = (text: string) => sample(text, 'sign_ins_total{result="succeeded"}') ?? 0;
    const refused = (text: string) => sample(text, 'sign_ins_total{result="refused"}') ?? 0;
    const contracts = (text: string) =>
      sample(text, 'documents_generated_total{family="contract",result="ok"}') ?? 0;

    const token = await t.signIn('legal@demo.local');
    const wrongEmail = await t.app.inject({
      method: 'POST',
      url: '/backend/private/saveUser',
      headers: bearer(await issueToken({ email: 'berater@demo.local' })),
      payload: { email: 'legal@demo.local' },
    });
    expect(wrongEmail.statusCode).toBe(403);
    const generated = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocx/${docxKey}/${demoMatch.matchId}`,
      headers: bearer(token),
      payload: { dataList: demoDataList(docxKey) },
    });
    expect(generated.statusCode, generated.body).toBe(200);

    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const after = response.body;
    expect(signedIn(after) - signedIn(before)).toBe(1);
    expect(refused(after) - refused(before)).toBe(1);
    expect(contracts(after) - contracts(before)).toBe(1);
    expect(sample(after, 'document_render_seconds_count{family="contract"}')).toBeGreaterThanOrEqual(1);
    // By route pattern: the match ID does not make a series of its own.
    expect(
      sample(
        after,
        'http_request_duration_seconds_count{method="POST",route="/backend/generateDocx/:docId/:matchId",status_code="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain(demoMatch.matchId);
    expect(sample(after, 'render_queue_depth')).toBe(0);
    expect(sample(after, 'mail_outbox_backlog')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'mail_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(after, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    expect(after).toContain('nodejs_eventloop_lag_seconds');
    if (database.name === 'postgres') {
      expect(sample(after, 'database_pool_connections_in_use')).toBeGreaterThanOrEqual(0);
    }
  });

  it('reports envelopes by status', async () => {
    const token = await t.signIn('berater@demo.local');
    const created = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/de-wm-pp-rv/${demoMatch.matchId}`,
      headers: bearer(token),
      payload: { dataList: demoDataList('de-wm-pp-rv') },
    });
    expect(created.statusCode, created.body).toBe(200);
    const drafts = await db
      .selectFrom('envelopes')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('status', '=', 'created')
      .executeTakeFirstOrThrow();
    expect(sample((await scrape()).body, 'envelopes{status="created"}')).toBe(Number(drafts.count));
  });

  it('passes promtool check metrics, apart from the names of prom-client’s default metrics', async () => {
    // By now each metric of ours has samples: the tests above signed in, generated and created envelopes.
    const metrics = (await scrape()).body;
    expect(promtoolProblems(metrics).filter((problem) => !/^(process|nodejs)_/.test(problem))).toEqual([]);
    // The check does check: a counter without `_total`, in milliseconds, is reported.
    const planted = '# HELP planted_ms Planted\n# TYPE planted_ms counter\nplanted_ms 1\n';
    expect(
      promtoolProblems(`${metrics}${planted}`).filter((problem) => problem.startsWith('planted_ms')),
    ).toEqual(
      expect.arrayContaining([
        expect.stringContaining('_total'),
        expect.stringContaining('abbreviated units'),
      ]),
    );
  });
});

/** What Prometheus' own linter (`promtool check metrics`, Debian's prometheus package) says about a scrape. */
function promtoolProblems(metrics: string): string[] {
  const check = spawnSync('promtool', ['check', 'metrics'], { input: metrics, encoding: 'utf8' });
  if (check.error) throw new Error(`promtool is needed (apt-get install prometheus): ${check.error.message}`);
  return check.stderr.split('\n').filter(Boolean);
}

describe('readiness phases', () => {
  let db: Db;
  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
  });
  afterAll(async () => {
    await db.destroy();
  });

  const renderer = (closed: boolean): Renderer => ({
    render: () => Promise.reject(new Error('not used')),
    pending: () => 2,
    closed: () => closed,
    close: async () => {},
  });

  it('is starting before it serves, draining once it stops, and degraded without its renderer', async () => {
    const lifecycle = new ServerLifecycle();
    expect((await checkReadiness({ db, renderer: renderer(false), lifecycle })).status).toBe('starting');
    lifecycle.phase = 'serving';
    expect(await checkReadiness({ db, renderer: renderer(false), lifecycle })).toMatchObject({
      status: 'ready',
      renderer: { status: 'up', pending: 2 },
    });
    expect(await checkReadiness({ db, renderer: renderer(true), lifecycle })).toMatchObject({
      status: 'degraded',
      renderer: { status: 'closed' },
    });
    lifecycle.phase = 'draining';
    expect((await checkReadiness({ db, renderer: renderer(false), lifecycle })).status).toBe('draining');
  });

  it('is degraded with the database down, and says the outbox is unknown', async () => {
    const gone = await pgliteTestDatabase.open();
    await gone.destroy();
    const lifecycle = new ServerLifecycle();
    lifecycle.phase = 'serving';
    expect(await checkReadiness({ db: gone, renderer: renderer(false), lifecycle })).toMatchObject({
      status: 'degraded',
      database: 'down',
      outbox: { status: 'unknown' },
    });
  });
});

describe('without METRICS_TOKEN', () => {
  let db: Db;
  let t: TestApp;
  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
    t = await createTestApp(db);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  it('has no metrics route, and readiness still answers', async () => {
    const metrics = await t.app.inject({ method: 'GET', url: '/backend/metrics', headers: bearer('x') });
    expect(metrics.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/backend/ready' })).statusCode).toBe(200);
  });
});
