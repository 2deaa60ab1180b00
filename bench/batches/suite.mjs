import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { withDatabase } from '../lib/database.mjs';
import { table } from '../lib/markdown.mjs';
import { residentMiB } from '../lib/memory.mjs';
import { startPostgres } from '../lib/postgres.mjs';
import { importServer } from '../lib/server.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { signInDemoAccount } from '../lib/sign-in.mjs';
import { ms } from '../lib/stats.mjs';

/**
 * Serien: the built server as `npm start` runs it, on each database, checks and makes a batch of 1,000
 * extensions (Word documents) while a colleague looks up matches one after another and the batch's page
 * reads its progress every 250 ms, as the page does every second. Measured from outside: the check, the
 * run from its start to the last document stored, the lookups' p99, the server's VmRSS, and how far the
 * progress the page reads is behind the job.
 */

const DEALS = 1000;
const QUICK_DEALS = 100;
const BUDGET = { runSeconds: 10, lookupP99Ms: 200, rssMiB: 350, lagMs: 1000 };

export default {
  name: 'batches',
  title: 'Serien: 1,000 extensions in one batch',

  async run({ quick, log }) {
    const deals = quick ? QUICK_DEALS : DEALS;
    const postgres = await startPostgres();
    const databases = [{ name: 'PGlite (embedded)', env: {} }];
    if ('url' in postgres) {
      databases.push({ name: 'PostgreSQL', env: { DATABASE_URL: postgres.createDatabase('bench_batches') } });
    } else {
      log(`PostgreSQL is left out: ${postgres.unavailable}`);
    }
    const results = [];
    try {
      for (const database of databases) {
        const dataDir = await mkdtemp(join(tmpdir(), 'bench-batches-'));
        try {
          const logFile = join(dataDir, 'server.log');
          // The first start fills the demo; the deals are added while the server is stopped.
          await (await startServerProcess({ dataDir, logFile, env: database.env })).stop();
          const ids = Array.from({ length: deals }, (_, i) => `PL-${80001 + i}`);
          await withDatabase(dataDir, database.env, (db) => seedDeals(db, ids));
          const server = await startServerProcess({ dataDir, logFile, env: database.env });
          try {
            const result = await measureBatch(server, ids);
            results.push({ database: database.name, deals, ...result });
            log(
              `${database.name}: check ${ms(result.checkMs)} ms, run ${result.runSeconds.toFixed(1)} s ` +
                `(${result.perSecond.toFixed(0)} documents/s), lookup p99 ${ms(result.lookupP99)} ms, ` +
                `VmRSS max ${result.rssMaxMiB.toFixed(0)} MiB, progress lag max ${ms(result.lagMaxMs)} ms`,
            );
          } finally {
            await server.stop();
          }
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      }
    } finally {
      if ('stop' in postgres) postgres.stop();
    }
    return { markdown: report(results) };
  },
};

async function seedDeals(db, ids) {
  const { MatchStore } = await importServer('matches/match-store.js');
  await new MatchStore(db).upsertMany(
    ids.map((matchId, i) => ({
      matchId,
      kunde: `Kunde ${i} AG`,
      ansprechpartnerKunde: `Kai Kunde ${i}`,
      adresseKunde: `Kaistraße ${i}, 20457 Hamburg`,
      position: 'Senior Consultant',
      startdatum: '2027-01-04',
      enddatum: '2027-06-30',
      vk: 120,
      ek: 90,
      kuendigungsfristKunde: '4 Wochen zum Monatsende',
    })),
  );
}

async function call(baseUrl, token, method, path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await response.json();
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function measureBatch(server, ids) {
  const { baseUrl } = server;
  const legal = await signInDemoAccount(baseUrl, 'legal@demo.local');
  const colleague = await signInDemoAccount(baseUrl, 'berater@demo.local');
  const checkStarted = performance.now();
  const batch = await call(baseUrl, legal, 'POST', '/backend/batches', {
    docKey: 'verlaengerung-de-wm-k',
    values: { neuesEnde: '2027-12-31', neuerSatzRemote: 125 },
    matchIds: ids.join('\n'),
  });
  const checkMs = performance.now() - checkStarted;
  if (batch.counts.ready !== ids.length) throw new Error(`only ${batch.counts.ready} of ${ids.length} ready`);

  let running = true;
  const lookups = [];
  const rss = [];
  // A colleague at work beside the batch: one match after another.
  const lookup = (async () => {
    for (let i = 0; running; i++) {
      const started = performance.now();
      await call(baseUrl, colleague, 'POST', `/backend/match/PL-${10001 + (i % 28)}`);
      lookups.push(performance.now() - started);
    }
  })();
  const memory = (async () => {
    while (running) {
      rss.push(await residentMiB(server.child.pid));
      await sleep(200);
    }
  })();

  // Their failure is awaited below; until then it must not end the process before PostgreSQL is stopped.
  for (const loop of [lookup, memory]) loop.catch(() => {});
  const started = Date.now();
  await call(baseUrl, legal, 'POST', `/backend/batches/${batch.id}/start`);
  // The page reads the progress; each reading is compared with the documents stored by then.
  const readings = [];
  let finished;
  while (!finished) {
    await sleep(250);
    const read = await call(baseUrl, legal, 'GET', `/backend/batches/${batch.id}`);
    readings.push({ at: Date.now(), done: read.counts.done });
    if (read.status === 'finished') finished = read;
    else if (read.status !== 'running') throw new Error(`batch ${read.status}`);
  }
  const seenAt = Date.now();
  running = false;
  await Promise.all([lookup, memory]);
  // A reading is behind by how long ago the first document it does not count was stored.
  const stored = finished.items.map((item) => Date.parse(item.finishedAt)).sort((a, b) => a - b);
  const lags = readings.map(({ at, done }) => {
    const firstNotShown = stored[done];
    return firstNotShown !== undefined && firstNotShown < at ? at - firstNotShown : 0;
  });
  const lastDocument = stored[stored.length - 1];
  const runSeconds = (lastDocument - Date.parse(finished.startedAt)) / 1000;
  if (finished.counts.done !== ids.length) throw new Error(`${finished.counts.done} of ${ids.length} made`);
  const sorted = [...lookups].sort((a, b) => a - b);
  return {
    checkMs,
    runSeconds,
    wallSeconds: (seenAt - started) / 1000,
    perSecond: ids.length / runSeconds,
    lookups: lookups.length,
    lookupMedian: sorted[Math.floor((sorted.length - 1) * 0.5)],
    lookupP99: sorted[Math.floor((sorted.length - 1) * 0.99)],
    rssMaxMiB: Math.max(...rss),
    lagMaxMs: Math.max(...lags),
  };
}

function report(results) {
  const verdict = (ok) => (ok ? 'met' : '**missed**');
  const rows = results.map((r) => [
    r.database,
    String(r.deals),
    ms(r.checkMs),
    `${r.runSeconds.toFixed(1)} s (${r.perSecond.toFixed(0)}/s)`,
    `${ms(r.lookupMedian)} / ${ms(r.lookupP99)} (${r.lookups})`,
    r.rssMaxMiB.toFixed(0),
    ms(r.lagMaxMs),
    [
      `run ${verdict(r.runSeconds <= BUDGET.runSeconds)}`,
      `lookup ${verdict(r.lookupP99 <= BUDGET.lookupP99Ms)}`,
      `VmRSS ${verdict(r.rssMaxMiB <= BUDGET.rssMiB)}`,
      `progress ${verdict(r.lagMaxMs <= BUDGET.lagMs)}`,
    ].join(', '),
  ]);
  return [
    'The built server on each database (as `npm start`), a batch of extensions of seeded deals checked and',
    'started through the API; a colleague looks up matches one after another throughout, the batch page reads',
    'the progress every 250 ms. Run: from the start to the last document stored (the deals’ own times).',
    'Progress lag: the most any reading was behind — how long before it the first document it does not count was stored.',
    'One run per database.',
    '',
    table(
      [
        'database',
        'deals',
        'check (ms)',
        'run',
        'match lookup median / p99 (ms, lookups)',
        'VmRSS max (MiB)',
        'progress lag (ms)',
        `budgets (≤ ${BUDGET.runSeconds} s, p99 ≤ ${BUDGET.lookupP99Ms} ms, ≤ ${BUDGET.rssMiB} MiB, ≤ ${BUDGET.lagMs} ms)`,
      ],
      rows,
    ),
  ].join('\n');
}
