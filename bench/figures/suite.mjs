import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { table } from '../lib/markdown.mjs';
import { startPostgres } from '../lib/postgres.mjs';
import { importServer } from '../lib/server.mjs';
import { ms, summarize } from '../lib/stats.mjs';
import { seedFigures } from './seed.mjs';

/**
 * /auswertung with years of contracts: each chart's query of the built server (apps/server/dist,
 * contracts/figures-queries.js) against a database of 100,000 contract records with their documents,
 * envelopes, events, open and declined envelopes and approval requests, on PGlite (in its thread, as the
 * server runs it) and PostgreSQL; `FIGURES_RECORDS=n` sets another size (`--quick`: 10,000).
 */

const RECORDS = Number(process.env.FIGURES_RECORDS ?? 100_000);
const QUICK_RECORDS = 10_000;
const FULL = { warmup: 3, rounds: 15 };
const QUICK = { warmup: 1, rounds: 5 };
const BUDGET_MS = 400;

export default {
  name: 'figures',
  title: 'Auswertung with 100,000 contract records',

  async run({ quick, log }) {
    const settings = quick ? QUICK : FULL;
    const records = quick && !process.env.FIGURES_RECORDS ? QUICK_RECORDS : RECORDS;
    const { openDatabase, migrate } = await importServer('db/database.js');
    const queries = await importServer('contracts/figures-queries.js');
    const { contractFigures } = await importServer('contracts/figures.js');
    const postgres = await startPostgres();
    const databases = [{ name: 'PGlite (embedded)', target: 'pglite' }];
    if ('url' in postgres)
      databases.push({ name: 'PostgreSQL', target: postgres.createDatabase('bench_figures') });
    else log(`PostgreSQL is left out: ${postgres.unavailable}`);

    const results = [];
    let seeded;
    try {
      for (const database of databases) {
        const dataDir = await mkdtemp(join(tmpdir(), 'bench-figures-'));
        const target =
          database.target === 'pglite'
            ? { kind: 'pglite', dataDir }
            : { kind: 'postgres', url: database.target, poolSize: 10 };
        const db = await openDatabase(target);
        try {
          await migrate(db);
          const started = performance.now();
          seeded = await seedFigures(db, records);
          log(
            `${database.name}: ${records} records seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
          );
          for (const figure of figuresOf(queries, contractFigures)) {
            const timing = await measure(() => figure.run(db), settings);
            results.push({ database: database.name, figure: figure.title, ...timing });
            log(
              `${database.name} · ${figure.title}: median ${ms(timing.median)} ms, p90 ${ms(timing.p90)} ms (${timing.rows} rows)`,
            );
          }
        } finally {
          await db.destroy();
          await rm(dataDir, { recursive: true, force: true });
        }
      }
    } finally {
      if ('stop' in postgres) postgres.stop();
    }
    return { markdown: report(results, settings, records, seeded) };
  },
};

/** Each chart's query as the page asks for it (all companies, 12 months from today), and the whole answer. */
function figuresOf(queries, contractFigures) {
  const now = new Date();
  const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(now);
  const month = today.slice(0, 7);
  const shift = (by) => {
    const [year, number] = month.split('-').map(Number);
    const index = year * 12 + number - 1 + by;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  };
  const period = { from: `${shift(-11)}-01`, to: `${shift(1)}-01` };
  const company = undefined;
  return [
    {
      title: 'contracts ending per month',
      run: (db) => queries.endingsPerMonth(db, { today, to: `${shift(12)}-01`, company }),
    },
    {
      title: 'lead times (sent, completed)',
      run: (db) => queries.leadTimesPerMonth(db, { period, company }),
    },
    { title: 'Freigabe lead time', run: (db) => queries.approvalLeadTimes(db, { period, company }) },
    { title: 'where open envelopes wait', run: (db) => queries.waitingSteps(db, { company }) },
    { title: 'decline reasons', run: (db) => queries.declineReasons(db, { period, company }) },
    {
      title: 'all five, one company (WM)',
      run: async (db) => [await contractFigures(db, { company: 'wm', months: 12 }, now)],
    },
  ];
}

async function measure(run, { warmup, rounds }) {
  const samples = [];
  let rows = 0;
  for (let round = 0; round < warmup + rounds; round++) {
    const started = performance.now();
    const answer = await run();
    const elapsed = performance.now() - started;
    rows = answer.length;
    if (round >= warmup) samples.push(elapsed);
  }
  return { ...summarize(samples), rows };
}

function report(results, settings, records, seeded) {
  const perChart = results.filter((r) => !r.figure.startsWith('all five'));
  const worst = Math.max(...perChart.map((r) => r.median));
  return [
    '## Auswertung with 100,000 contract records',
    '',
    `Each chart’s query of \`/auswertung\` (\`apps/server/src/contracts/figures-queries.ts\`, from the built server), ` +
      `called in the bench process on a database of ${records.toLocaleString('en')} contract records, each with its ` +
      `document, completed envelope and five events, ${seeded?.open.toLocaleString('en')} envelopes out for signature ` +
      `(three signers each), ${seeded?.declined.toLocaleString('en')} declined ones and ` +
      `${seeded?.approvals.toLocaleString('en')} approval requests, spread over four years (bench/figures/seed.mjs); ` +
      `PGlite in its thread as the server runs it. All companies, twelve months; the last row is the whole answer ` +
      `for one company, its five queries together. ${settings.rounds} runs after ${settings.warmup} warm-up runs, ` +
      'milliseconds from the call to the rows.',
    '',
    table(
      ['database', 'figure', 'median ms', 'p90 ms', 'rows'],
      results.map((r) => [r.database, r.figure, ms(r.median), ms(r.p90), String(r.rows)]),
    ),
    '',
    `Budget: each chart ≤ ${BUDGET_MS} ms (median) — ${worst <= BUDGET_MS ? 'met' : 'missed'} (slowest ${ms(worst)} ms).`,
  ].join('\n');
}
