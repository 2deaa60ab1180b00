import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDatabase } from '../lib/database.mjs';
import { table } from '../lib/markdown.mjs';
import { startPostgres } from '../lib/postgres.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { signInDemoAccount } from '../lib/sign-in.mjs';
import { ms, summarize } from '../lib/stats.mjs';
import { REQUESTS, seedApprovals } from './seed.mjs';

/**
 * /freigaben with years of approval requests: the built server as `npm start` runs it, on a database
 * holding 10,000 approval requests (and their envelopes), answering `GET /backend/approvals` one request
 * after the other (what one user waits for), for a leader (an approver of all 10,000) and for a consultant
 * (her 1,000), on PGlite and PostgreSQL. The p90 is reported against the budget, not asserted.
 */

const VIEWS = [
  { title: 'open (the default)', query: '' },
  { title: 'decided', query: '?status=decided' },
  { title: 'all', query: '?status=all' },
  { title: 'search a customer', query: '?status=all&q=Kunde%2017%20GmbH' },
  { title: 'search a match', query: '?status=all&q=PL-21234' },
  { title: 'all, page 40', query: '?status=all&page=40' },
];
const READERS = ['leitung@demo.local', 'berater@demo.local'];
const FULL = { warmup: 5, rounds: 30 };
const QUICK = { warmup: 1, rounds: 5 };
const BUDGET_MS = 500;

export default {
  name: 'approvals',
  title: 'Freigaben with 10,000 approval requests',

  async run({ quick, log }) {
    const settings = quick ? QUICK : FULL;
    const postgres = await startPostgres();
    const databases = [{ name: 'PGlite (embedded)', env: {} }];
    if ('url' in postgres) {
      databases.push({
        name: 'PostgreSQL',
        env: { DATABASE_URL: postgres.createDatabase('bench_approvals') },
      });
    } else {
      log(`PostgreSQL is left out: ${postgres.unavailable}`);
    }
    const results = [];
    try {
      for (const database of databases) {
        const dataDir = await mkdtemp(join(tmpdir(), 'bench-approvals-'));
        try {
          // A first start migrates and adds the demo data; then the requests go in while it is stopped.
          const logFile = join(dataDir, 'server.log');
          await (await startServerProcess({ dataDir, logFile, env: database.env })).stop();
          const seeded = performance.now();
          await withDatabase(dataDir, database.env, seedApprovals);
          log(
            `${database.name}: ${REQUESTS} approval requests seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
          );
          const server = await startServerProcess({ dataDir, logFile, env: database.env });
          try {
            for (const reader of READERS) {
              const token = await signInDemoAccount(server.baseUrl, reader);
              for (const view of VIEWS) {
                const timing = await measure(server.baseUrl, token, view.query, settings);
                results.push({ database: database.name, reader, view: view.title, ...timing });
                log(
                  `${database.name} · ${reader} · ${view.title}: median ${ms(timing.median)} ms, ` +
                    `p90 ${ms(timing.p90)} ms, ${timing.shown} of ${timing.total}`,
                );
              }
            }
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
    return { markdown: report(results, settings) };
  },
};

async function measure(baseUrl, token, query, { warmup, rounds }) {
  const samples = [];
  let answer;
  for (let round = 0; round < warmup + rounds; round++) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/backend/approvals${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    answer = await response.json();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(answer)}`);
    if (round >= warmup) samples.push(elapsed);
  }
  return { ...summarize(samples), shown: answer.requests.length, total: answer.total };
}

function report(results, settings) {
  const worst = Math.max(...results.map((r) => r.p90));
  return [
    '## Freigaben with 10,000 approval requests',
    '',
    `\`GET /backend/approvals\` against the built server (\`npm start\`), ${REQUESTS.toLocaleString('en')} approval requests ` +
      '(a quarter open, the rest approved, declined or void, each with its envelope), one request after the other as ' +
      `one user waits for them; ${settings.rounds} rounds after ${settings.warmup} warm-up rounds, milliseconds from request to parsed answer. ` +
      'Lea Leitung is an approver of all requests, Berta Berater asked for 1,000. A page is 25 requests with the counts per filter.',
    '',
    table(
      ['database', 'user', 'view', 'median ms', 'p90 ms', 'requests found'],
      results.map((r) => [r.database, r.reader, r.view, ms(r.median), ms(r.p90), String(r.total)]),
    ),
    '',
    `Budget: p90 ≤ ${BUDGET_MS} ms for every view — ${worst <= BUDGET_MS ? 'met' : 'missed'} (slowest p90 ${ms(worst)} ms).`,
  ].join('\n');
}
