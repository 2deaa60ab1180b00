import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { apiRequests, checkRequest, LOAD_USER, MATCH_ID } from '../lib/api-requests.mjs';
import { freePort } from '../lib/free-port.mjs';
import { loadFigures, runLoad } from '../lib/load.mjs';
import { cpuSnapshot, describeMachine, othersShare } from '../lib/machine.mjs';
import { table } from '../lib/markdown.mjs';
import { startPostgres } from '../lib/postgres.mjs';
import { profileMainThread } from '../lib/profile.mjs';
import { importServer, packageVersion, root, serverRequire } from '../lib/server.mjs';
import { signInDemoAccount } from '../lib/sign-in.mjs';
import { factor, ms } from '../lib/stats.mjs';

/**
 * HTTP under load: the built server in this process, autocannon in a child process,
 * four API calls at 1, 10 and 50 connections, on the embedded database and on PostgreSQL.
 */

const SCENARIOS = ['match', 'users', 'docx', 'envelope'];
const FULL = { connections: [1, 10, 50], seconds: 10, warmupSeconds: 3, profileSeconds: 10 };
const QUICK = { connections: [1, 10, 50], seconds: 2, warmupSeconds: 1, profileSeconds: 2 };

const BUDGET = { scenario: 'docx', connections: 10, p99: 100 };
const cores = availableParallelism();

export default {
  name: 'http',
  title: 'HTTP under load',

  async run({ quick, machine, log }) {
    const settings = quick ? QUICK : FULL;
    const databases = [{ name: 'PGlite (embedded)', env: {} }];
    const postgres = await startPostgres();
    if ('url' in postgres) {
      databases.push({ name: 'PostgreSQL', env: { DATABASE_URL: postgres.url }, version: postgres.version });
    } else {
      log(`PostgreSQL is left out: ${postgres.unavailable}`);
    }

    const results = [];
    let othersLoad = Number.NaN;
    let renderThreads;
    try {
      const cpuAtStart = cpuSnapshot();
      for (const database of databases) {
        const server = await startInProcess(database.env);
        renderThreads = server.renderThreads;
        try {
          const token = await signInDemoAccount(server.baseUrl, LOAD_USER);
          const requests = await apiRequests(token);
          for (const request of Object.values(requests)) await checkRequest(server.baseUrl, request);
          log(
            `${database.name}: server on ${server.baseUrl}, signed in as ${LOAD_USER}, every request answers 2xx`,
          );

          const runs = [];
          for (const scenario of SCENARIOS) {
            const request = requests[scenario];
            await measure(server.baseUrl, request, settings.connections[1], settings.warmupSeconds);
            for (const connections of settings.connections) {
              const run = await measure(server.baseUrl, request, connections, settings.seconds);
              runs.push({ scenario, title: request.title, connections, ...run });
              log(
                `${database.name} · ${request.title} · ${connections} conn: p50 ${run.p50} ms, p99 ${run.p99} ms, ` +
                  `${run.perSecond.toFixed(0)} req/s, non-2xx ${run.non2xx}, errors ${run.errors}, ` +
                  `loop delay p99 ${ms(run.loop.p99)} ms`,
              );
              if (run.non2xx > 0 || run.errors > 0)
                log(`  answers by status: ${JSON.stringify(run.byStatus)}`);
            }
          }

          // After the timed runs, so that the profiler's own cost is in none of the figures above.
          const docx = requests[BUDGET.scenario];
          const profile = await profileMainThread(() =>
            runLoad(loadOptions(server.baseUrl, docx, BUDGET.connections, settings.profileSeconds)),
          );
          results.push({ database, runs, profile });
        } finally {
          await server.close();
        }
      }
      othersLoad = othersShare(cpuAtStart, cpuSnapshot());
    } finally {
      if ('stop' in postgres) postgres.stop();
    }
    return { markdown: report({ results, machine, settings, othersLoad, renderThreads }) };
  },
};

/**
 * The server as main.ts starts it (config → database → migrations → composeApp → listen), in this
 * process so that its event loop can be watched, with its own data folder, the demo data and a rate
 * limit that the sign-in of the benchmark cannot reach. It logs at the production level to a file.
 */
async function startInProcess(env) {
  const { loadConfig } = await importServer('config/config.js');
  const { migrate, openDatabase } = await importServer('db/database.js');
  const { composeApp } = await importServer('compose.js');
  const { loggerOptions } = await importServer('app.js');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-http-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig(
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
      RATE_LIMIT_PER_MINUTE: '100000',
      RENDER_THREADS: process.env.RENDER_THREADS,
      ...env,
    },
    version,
  );
  const db = await openDatabase(config.database);
  await migrate(db);
  const app = await composeApp(config, db, { ...loggerOptions(config), file: join(dataDir, 'server.log') });
  await app.listen({ port: config.port, host: config.host });
  return {
    baseUrl,
    renderThreads: config.renderThreads,
    async close() {
      await app.close();
      await db.destroy();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The histogram records the time between two ticks of its timer, in nanoseconds: how late a tick
 * came, in milliseconds, is that minus the timer's interval.
 */
const LOOP_RESOLUTION_MS = 1;
const lateBy = (nanoseconds) => Math.max(0, nanoseconds / 1e6 - LOOP_RESOLUTION_MS);

function loadOptions(baseUrl, request, connections, seconds) {
  return {
    url: new URL(request.path, baseUrl).href,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections,
    duration: seconds,
    idReplacement: Boolean(request.headers['idempotency-key']),
  };
}

/** One load run with the event loop of this process, the server's, watched meanwhile. */
async function measure(baseUrl, request, connections, seconds) {
  const delay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  const utilizationAtStart = performance.eventLoopUtilization();
  const cpuAtStart = process.cpuUsage();
  const machineAtStart = cpuSnapshot();
  delay.enable();
  const result = await runLoad(loadOptions(baseUrl, request, connections, seconds));
  delay.disable();
  const cpu = process.cpuUsage(cpuAtStart);
  const others = othersShare(machineAtStart, cpuSnapshot());
  const wallMs = result.duration * 1000;
  const figures = loadFigures(result);
  const requests = Math.max(1, figures.requests);
  const loopUtilization = performance.eventLoopUtilization(utilizationAtStart).utilization;
  const serverCpuPerRequest = (cpu.user + cpu.system) / 1000 / requests;
  const mainThreadPerRequest = (loopUtilization * wallMs) / requests;
  return {
    ...figures,
    loop: { p50: lateBy(delay.percentile(50)), p99: lateBy(delay.percentile(99)), max: lateBy(delay.max) },
    loopUtilization,
    serverCpuPerRequest,
    mainThreadPerRequest,
    // The process's CPU time beyond its busy event loop: the render threads, the embedded database's
    // thread on PGlite, libuv's pool.
    otherThreadsPerRequest: Math.max(0, serverCpuPerRequest - mainThreadPerRequest),
    // The load generator, PostgreSQL and whatever else ran on the machine meanwhile.
    othersPerRequest: (others * cores * wallMs) / requests,
  };
}

function report({ results, machine, settings, othersLoad, renderThreads }) {
  const budgetRun = (runs) =>
    runs.find((r) => r.scenario === BUDGET.scenario && r.connections === BUDGET.connections);
  const verdicts = results.map(({ database, runs }) => {
    const run = budgetRun(runs);
    return { database, run, met: run.p99 <= BUDGET.p99 };
  });
  const verdict = verdicts
    .map(({ database, run, met }) => `${met ? 'met' : 'missed'} on ${database.name} (p99 ${run.p99} ms)`)
    .join(', ');
  const clean = results.every(({ runs }) => runs.every((r) => r.non2xx === 0 && r.errors === 0));
  const versions = ['fastify', 'autocannon', '@electric-sql/pglite', 'pg'].map(
    (name) => `${name} ${packageVersion(name, name === 'autocannon' ? undefined : serverRequire)}`,
  );

  const lines = [
    '## HTTP under load',
    '',
    `Measured ${describeMachine(machine)}. Other processes used ` +
      `${Number.isFinite(othersLoad) ? `${(othersLoad * 100).toFixed(0)} %` : 'an unknown share'} of the ` +
      'CPU time during the run (the load generator is one of them: it shares the machine with the server).',
    `Libraries: ${versions.join(', ')}` +
      `${results.find((r) => r.database.version) ? `; ${results.find((r) => r.database.version).database.version}` : ''}. ` +
      `Render worker threads: ${renderThreads}, the production default on this machine. Signed in as ` +
      `${LOAD_USER} through the embedded identity provider; demo match ${MATCH_ID}.`,
    '',
    `**Budget: DOCX generation p99 ≤ ${BUDGET.p99} ms at ${BUDGET.connections} connections — ` +
      `${verdict}.** ${clean ? 'Every request of every run answered 2xx, with no socket errors.' : 'Not every request answered 2xx: see the non-2xx and errors columns and the notes below.'}`,
    '',
  ];

  for (const { database, runs } of results) {
    lines.push(
      `### ${database.name}`,
      '',
      table(
        [
          'request',
          'connections',
          'p50',
          'p99',
          'requests/s',
          'non-2xx',
          'errors',
          'loop delay p50 / p99 / max',
          'loop busy',
          'server CPU per request',
        ],
        runs.map((r) => [
          r.title,
          String(r.connections),
          `${r.p50} ms`,
          `${r.p99} ms`,
          r.perSecond.toFixed(0),
          String(r.non2xx),
          String(r.errors + r.timeouts),
          `${ms(r.loop.p50)} / ${ms(r.loop.p99)} / ${ms(r.loop.max)} ms`,
          `${(r.loopUtilization * 100).toFixed(0)} %`,
          `${ms(r.serverCpuPerRequest)} ms`,
        ]),
      ),
      '',
    );
    const troubled = runs.filter((r) => r.non2xx > 0 || r.errors > 0 || r.timeouts > 0);
    for (const r of troubled) {
      lines.push(
        `- ${r.title} at ${r.connections} connections: answers by status ${JSON.stringify(r.byStatus)}, ` +
          `${r.errors} socket errors, ${r.timeouts} timeouts.`,
      );
    }
    if (troubled.length > 0) lines.push('');
  }

  if (results.length === 2) {
    const [embedded, postgres] = results;
    lines.push(
      '### PGlite against PostgreSQL',
      '',
      'At each connection count: requests/s on PostgreSQL ÷ on PGlite, and p99 on PGlite ÷ on PostgreSQL ' +
        '(above 1× PostgreSQL is faster).',
      '',
      table(
        [
          'request',
          ...settings.connections.flatMap((c) => [`req/s ratio, ${c} conn`, `p99 ratio, ${c} conn`]),
        ],
        SCENARIOS.map((scenario) => {
          const of = (result, connections) =>
            result.runs.find((r) => r.scenario === scenario && r.connections === connections);
          return [
            of(embedded, settings.connections[0]).title,
            ...settings.connections.flatMap((c) => [
              factor(of(postgres, c).perSecond, of(embedded, c).perSecond),
              factor(of(embedded, c).p99, of(postgres, c).p99),
            ]),
          ];
        }),
      ),
      '',
    );
  }

  lines.push(...whereTheTimeGoes(results, verdicts), '', ...howMeasured(settings));
  return lines.join('\n');
}

/**
 * From the same run: how the budget's p99 relates to the throughput (Little's law: with N connections
 * always waiting, the mean latency is N ÷ requests/s), and what the server's main thread spent its
 * time on while generating (a CPU profile of a further run at the budget's connection count).
 */
function whereTheTimeGoes(results, verdicts) {
  const lines = [
    '### Where the time goes',
    '',
    `DOCX generation at ${BUDGET.connections} connections: every connection waits for its answer before it sends ` +
      `the next request, so the mean latency is ${BUDGET.connections} ÷ requests/s, and the p99 can be ` +
      `at most ${BUDGET.p99} ms only when the server completes well over ${(BUDGET.connections * 1000) / BUDGET.p99} ` +
      'documents a second. The single-connection p50 is the time of one request with nothing queued.',
    '',
    table(
      [
        'database',
        'p99',
        'requests/s',
        "mean by Little's law",
        'p50 at 1 connection',
        'event loop per request',
        'worker threads per request',
        'other processes per request',
        `ceiling on ${cores} cores`,
        'budget',
      ],
      verdicts.map(({ database, run, met }) => {
        const single = results
          .find((r) => r.database === database)
          .runs.find((r) => r.scenario === BUDGET.scenario && r.connections === 1);
        const perRequest = run.mainThreadPerRequest + run.otherThreadsPerRequest + run.othersPerRequest;
        return [
          database.name,
          `${run.p99} ms`,
          run.perSecond.toFixed(0),
          `${ms((BUDGET.connections * 1000) / run.perSecond)} ms`,
          `${single.p50} ms`,
          `${ms(run.mainThreadPerRequest)} ms`,
          `${ms(run.otherThreadsPerRequest)} ms`,
          `${ms(run.othersPerRequest)} ms`,
          `${((cores * 1000) / perRequest).toFixed(0)} req/s`,
          met ? 'met' : 'missed',
        ];
      }),
    ),
    '',
    'Per request: "event loop" is the busy time of the server’s event loop (event-loop utilisation × ' +
      'duration ÷ requests; on a busy machine it includes time the loop waited for a core, and the worker ' +
      'threads’ figure is then too low), "worker threads" the rest of the server process’s CPU time (the ' +
      'render threads, and on PGlite the thread the embedded database runs in), "other ' +
      'processes" the CPU time all other processes used meanwhile (the load generator, PostgreSQL, ' +
      `anything else on the machine); "ceiling" is ${cores} cores’ time divided by their sum, the most ` +
      'documents a second this machine could answer with all three on it.',
    '',
    'Main thread of the server while generating (event loop: HTTP, authentication, validation, database ' +
      'client, logging; rendering runs in the render threads, see the rendering section, and PGlite in a ' +
      'thread of its own): share of the ' +
      'profiled samples by where the code comes from, self time.',
    '',
  ];
  for (const { database, profile } of results) {
    lines.push(
      `- ${database.name}: ${profile.groups
        .slice(0, 8)
        .map((g) => `${g.name} ${(g.share * 100).toFixed(0)} %`)
        .join(', ')}; hottest functions: ${profile.functions
        .slice(0, 5)
        .map((f) => `${f.name} ${(f.share * 100).toFixed(1)} %`)
        .join(', ')}.`,
    );
  }
  return lines;
}

function howMeasured(settings) {
  return [
    '### How measured',
    '',
    'The server is the built one (apps/server/dist), started in the bench process as main.ts starts it ' +
      '(config/ → database and migrations → compose.ts → listen on 127.0.0.1) with its own temporary ' +
      'DATA_DIR, DEMO_DATA=true, RATE_LIMIT_PER_MINUTE=100000 and logging at the production level `info` ' +
      'to a file; everything else is the embedded default (built-in signing, file mailer). It runs here so ' +
      'that `perf_hooks.monitorEventLoopDelay` (1 ms timer; the figures are how late its ticks came) and the event-loop utilisation watch the ' +
      'server’s own event loop. autocannon runs in a child process (bench/lib/load.mjs): in this process it ' +
      'would share the event loop it measures, and its own work would count as server latency. A real ID ' +
      'token comes from the embedded identity provider (authorization code with PKCE over HTTP, as the ' +
      'SPA’s popup does), its session is opened with `saveUser` and checked with `verifyUser`; before any ' +
      'load, each request is sent once and must answer 2xx. The dataLists are the server’s `sampleDataList` ' +
      'for the demo match, as the API tests send. Every envelope request carries a fresh Idempotency-Key ' +
      '(autocannon `idReplacement`), as one click in the browser does. Each request type first gets a ' +
      `${settings.warmupSeconds} s warm-up at ${settings.connections[1]} connections, then ${settings.seconds} s at each of ` +
      `${settings.connections.join(', ')} connections; p50 and p99 are autocannon's latencies, requests/s ` +
      'its mean per second. "Server CPU per request" is the CPU time of the whole server process (event ' +
      'loop and worker threads) divided by the requests answered. PostgreSQL is a throwaway server of ' +
      "Debian's package (fsync off), with the default pool of 10 connections. The profile is a further " +
      `${settings.profileSeconds} s run of DOCX generation at ${BUDGET.connections} connections under the V8 ` +
      'inspector’s CPU profiler of the main thread, after the timed runs.',
  ];
}
