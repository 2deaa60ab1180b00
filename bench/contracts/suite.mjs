import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDatabase } from '../lib/database.mjs';
import { table } from '../lib/markdown.mjs';
import { startPostgres } from '../lib/postgres.mjs';
import { importServer } from '../lib/server.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { signInDemoAccount } from '../lib/sign-in.mjs';
import { ms, summarize } from '../lib/stats.mjs';
import { CONTRACTS, seedContracts } from './seed.mjs';

/**
 * Verträge with years of contracts: the built server as `npm start` runs it, on a database holding
 * 100,000 contract records, answering `GET /backend/contracts` one request after the other (what one
 * user waits for) in its default view and with each filter, for legal staff (all) and for a consultant
 * (her 5,000), on PGlite and PostgreSQL; and the export of a filtered view.
 */

const VIEWS = [
  { title: 'default (by end)', query: '' },
  { title: 'company', query: '?company=we' },
  { title: 'customer', query: '?customer=Kunde%201234%20AG' },
  { title: 'consultant', query: '?consultant=Berater%207' },
  { title: 'kind', query: '?kind=rahmenvertrag' },
  { title: 'status: ending soon', query: '?status=ending_soon' },
  { title: 'ends within 60 days', query: '?endsWithin=60' },
  { title: 'notice due within 30 days', query: '?noticeWithin=30&sort=notice' },
  { title: 'without a Rahmenvertrag', query: '?withoutFramework=true' },
  { title: 'search', query: '?q=PL-3123' },
  { title: 'sorted by customer, page 100', query: '?sort=customer&direction=desc&page=100' },
];
const READERS = ['legal@demo.local', 'berater@demo.local'];
const FULL = { warmup: 5, rounds: 30 };
const QUICK = { warmup: 1, rounds: 5 };
const BUDGET_MS = 150;
const REMINDER_BUDGET_S = 10;

export default {
  name: 'contracts',
  title: 'Verträge with 100,000 contract records',

  async run({ quick, log }) {
    const settings = quick ? QUICK : FULL;
    const postgres = await startPostgres();
    const databases = [{ name: 'PGlite (embedded)', env: {} }];
    if ('url' in postgres) {
      databases.push({
        name: 'PostgreSQL',
        env: { DATABASE_URL: postgres.createDatabase('bench_contracts') },
      });
    } else {
      log(`PostgreSQL is left out: ${postgres.unavailable}`);
    }
    const results = [];
    const reminders = [];
    try {
      for (const database of databases) {
        const dataDir = await mkdtemp(join(tmpdir(), 'bench-contracts-'));
        try {
          const logFile = join(dataDir, 'server.log');
          await (await startServerProcess({ dataDir, logFile, env: database.env })).stop();
          const seeded = performance.now();
          await withDatabase(dataDir, database.env, seedContracts);
          log(
            `${database.name}: ${CONTRACTS} records seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
          );
          const server = await startServerProcess({ dataDir, logFile, env: database.env });
          try {
            for (const reader of READERS) {
              const token = await signInDemoAccount(server.baseUrl, reader);
              for (const view of VIEWS) {
                const timing = await measure(
                  server.baseUrl,
                  token,
                  `/backend/contracts${view.query}`,
                  settings,
                );
                results.push({ database: database.name, reader, view: view.title, ...timing });
                log(
                  `${database.name} · ${reader} · ${view.title}: median ${ms(timing.median)} ms, p90 ${ms(timing.p90)} ms, ${timing.total} found`,
                );
              }
            }
            const token = await signInDemoAccount(server.baseUrl, READERS[0]);
            for (const format of ['csv', 'xlsx']) {
              const timing = await measure(
                server.baseUrl,
                token,
                `/backend/contracts/export?format=${format}&status=ending_soon`,
                { warmup: 1, rounds: quick ? 2 : 5 },
              );
              results.push({
                database: database.name,
                reader: READERS[0],
                view: `export ${format}, ending soon`,
                ...timing,
              });
              log(`${database.name} · export ${format}: median ${ms(timing.median)} ms`);
            }
          } finally {
            await server.stop();
          }
          const run = await withDatabase(dataDir, database.env, reminderRun);
          reminders.push({ database: database.name, ...run });
          log(
            `${database.name} · reminder run: ${(run.seconds).toFixed(1)} s, ${run.reminded} reminders, ${run.ended} ended; ` +
              `longest wait of a query beside it ${ms(run.longestWait)} ms`,
          );
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      }
    } finally {
      if ('stop' in postgres) postgres.stop();
    }
    return { markdown: report(results, reminders, settings) };
  },
};

async function measure(baseUrl, token, path, { warmup, rounds }) {
  const samples = [];
  let total = '';
  for (let round = 0; round < warmup + rounds; round++) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const isJson = response.headers.get('content-type')?.startsWith('application/json');
    const body = isJson ? await response.json() : await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    total = isJson ? String(body.total) : `${(body.byteLength / 1024).toFixed(0)} kB`;
    if (round >= warmup) samples.push(elapsed);
  }
  return { ...summarize(samples), total };
}

function report(results, reminders, settings) {
  const lists = results.filter((r) => !r.view.startsWith('export'));
  const worst = Math.max(...lists.map((r) => r.p90));
  return [
    '## Verträge with 100,000 contract records',
    '',
    `\`GET /backend/contracts\` against the built server (\`npm start\`), ${CONTRACTS.toLocaleString('en')} records ` +
      '(2,000 Rahmenverträge, Einzelaufträge under them; ends over four years), one request after the other as one ' +
      `user waits for them; ${settings.rounds} rounds after ${settings.warmup} warm-up rounds, milliseconds from request ` +
      'to parsed answer. Legal staff see every record, Berta Berater the 5,000 of her deals. A page is 50 records with ' +
      'the count of all that match. The exports are of the legal view filtered to the contracts ending soon.',
    '',
    table(
      ['database', 'user', 'view', 'median ms', 'p90 ms', 'found'],
      results.map((r) => [r.database, r.reader, r.view, ms(r.median), ms(r.p90), r.total]),
    ),
    '',
    `Budget: p90 ≤ ${BUDGET_MS} ms for the default view and each filter — ${worst <= BUDGET_MS ? 'met' : 'missed'} (slowest p90 ${ms(worst)} ms).`,
    '',
    'The reminder run over the same records, as of the bench day, with the lead times of the defaults (60 days ' +
      'before the notice deadline, 14 before the end), the mails queued for the outbox, not sent: the first run sends ' +
      'the whole backlog (100 contracts per transaction), the next run of the day finds nothing left. ' +
      'Beside it a `select 1` every 50 ms on the same database, whose longest wait is how long the run held it at once.',
    '',
    table(
      [
        'database',
        'first run s',
        'reminders',
        'ended',
        'longest wait beside it ms',
        'next run s',
        'longest wait beside it ms',
      ],
      reminders.map((r) => [
        r.database,
        r.seconds.toFixed(1),
        String(r.reminded),
        String(r.ended),
        ms(r.longestWait),
        r.secondsAgain.toFixed(1),
        ms(r.longestWaitAgain),
      ]),
    ),
    '',
    `Budget: a run over all records ≤ ${REMINDER_BUDGET_S} s, the database never held for more than a second — ` +
      `first run ${reminders.every((r) => r.seconds <= REMINDER_BUDGET_S && r.longestWait <= 1000) ? 'met' : 'missed'}, ` +
      `next run ${reminders.every((r) => r.secondsAgain <= REMINDER_BUDGET_S && r.longestWaitAgain <= 1000) ? 'met' : 'missed'}.`,
  ].join('\n');
}

/**
 * The reminder run as the server runs it, on the database opened here, while a trivial query is asked
 * every 50 ms: its longest wait is the longest the run kept the database from others.
 */
async function reminderRun(db) {
  const { ContractReminders } = await importServer('contracts/reminders/contract-reminders.js');
  const { ContractReminderSettings } = await importServer('contracts/reminders/reminder-settings.js');
  const { MailOutbox } = await importServer('mail/mail-outbox.js');
  const { AuditLog } = await importServer('admin/audit-log.js');
  const { sql } = await import('kysely');
  const quiet = { warn() {} };
  // The mails stay queued: the outbox is never asked to deliver (deliverSoon is a no-op here).
  const outbox = new MailOutbox(db, { send: async () => {} }, 'support@demo.local', quiet);
  outbox.deliverSoon = () => {};
  const reminders = new ContractReminders({
    db,
    outbox,
    settings: new ContractReminderSettings(db, new AuditLog(db)),
    publicUrl: 'http://localhost:8080',
    log: quiet,
  });
  let longestWait = 0;
  let running = true;
  const probe = (async () => {
    while (running) {
      const asked = performance.now();
      await sql`select 1`.execute(db);
      longestWait = Math.max(longestWait, performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = performance.now();
  const result = await reminders.run(new Date());
  const seconds = (performance.now() - started) / 1000;
  const firstWait = longestWait;
  // The next run of the same day: what every hourly run after the backlog is, nothing left to send.
  longestWait = 0;
  const again = performance.now();
  await reminders.run(new Date());
  const secondsAgain = (performance.now() - again) / 1000;
  running = false;
  await probe;
  return {
    seconds,
    reminded: result.reminded,
    ended: result.ended,
    longestWait: firstWait,
    secondsAgain,
    longestWaitAgain: longestWait,
  };
}
