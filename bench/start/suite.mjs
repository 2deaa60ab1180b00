import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSnapshot, describeMachine, othersShare } from '../lib/machine.mjs';
import { table } from '../lib/markdown.mjs';
import { residentMiB } from '../lib/memory.mjs';
import { startPostgres } from '../lib/postgres.mjs';
import { summarizeProfile } from '../lib/profile.mjs';
import { SERVER_ENTRY, startServerProcess } from '../lib/server-process.mjs';
import { factor, ms, summarize } from '../lib/stats.mjs';
import { breakdownRows, memoryBreakdown, SETTLE_MS } from './breakdown.mjs';

/**
 * Start: `node apps/server/dist/main.js`, what `npm start` runs after building, to a
 * healthy `GET /backend/health`, on a fresh DATA_DIR and again on the same one.
 */

const FULL = { rounds: 5 };
const QUICK = { rounds: 2 };
/** Issue "Fast where people wait, round two": a server killed while healthy is back within this. */
const BUDGET_MS = 1500;
/** Resident memory once healthy, first start and restart alike, by database (docs/operations.md). */
const MEMORY_BUDGET_MIB = { embedded: 250, postgres: 200 };

/** Each kind of start: on which database, and whether its database is new. */
const KINDS = {
  first: { label: 'first start, fresh DATA_DIR', database: 'embedded' },
  restart: { label: 'restart, same DATA_DIR', database: 'embedded' },
  killed: { label: 'restart after SIGKILL, same DATA_DIR', database: 'embedded', killed: true },
  postgresFirst: { label: 'first start on PostgreSQL, empty database', database: 'postgres' },
  postgresRestart: { label: 'restart on PostgreSQL, same database', database: 'postgres' },
  postgresKilled: { label: 'restart on PostgreSQL after SIGKILL', database: 'postgres', killed: true },
};
const DATABASE_NAMES = { embedded: 'PGlite (embedded)', postgres: 'PostgreSQL' };
/** A first start on a machine shared with other work can take minutes: measured, not cut off. */
const START_TIMEOUT_MS = 300_000;

export default {
  name: 'start',
  title: 'Start',

  async run({ quick, machine, log }) {
    const settings = quick ? QUICK : FULL;
    const scratch = await mkdtemp(join(tmpdir(), 'bench-start-'));
    const postgres = await startPostgres();
    const kinds = Object.keys(KINDS).filter(
      (kind) => KINDS[kind].database === 'embedded' || 'url' in postgres,
    );
    if (!('url' in postgres)) log(`PostgreSQL is left out: ${postgres.unavailable}`);
    const samples = Object.fromEntries(kinds.map((kind) => [kind, []]));
    const memory = Object.fromEntries(kinds.map((kind) => [kind, []]));
    const cpu = Object.fromEntries(kinds.map((kind) => [kind, []]));
    let othersLoad = Number.NaN;
    let profiles;
    const breakdowns = {};
    const postgresUrls = [];
    try {
      const cpuAtStart = cpuSnapshot();
      for (let round = 1; round <= settings.rounds; round++) {
        const dataDir = join(scratch, `data-${round}`);
        const env = {};
        for (const kind of kinds) {
          if (kind === 'postgresFirst') {
            env.DATABASE_URL = postgres.createDatabase(`bench_start_${round}`);
            postgresUrls.push(env.DATABASE_URL);
          }
          const logFile = join(scratch, `${kind}-${round}.log`);
          if (KINDS[kind].killed) await killWhileHealthy({ dataDir, logFile, env });
          const server = await startServerProcess({ dataDir, logFile, env, timeoutMs: START_TIMEOUT_MS });
          const cpuMs = await cpuMsOf(server.child.pid);
          await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          const rss = await residentMiB(server.child.pid);
          await server.stop();
          samples[kind].push(server.msToHealthy);
          cpu[kind].push(cpuMs);
          memory[kind].push(rss);
          log(
            `round ${round}: ${KINDS[kind].label} healthy after ${ms(server.msToHealthy)} ms ` +
              `(CPU ${ms(cpuMs)} ms), VmRSS ${rss.toFixed(0)} MiB`,
          );
        }
      }
      othersLoad = othersShare(cpuAtStart, cpuSnapshot());
      profiles = await profiledStarts(scratch);
      breakdowns.embedded = await memoryBreakdown({ scratch, dataDir: join(scratch, 'data-1') });
      if (postgresUrls.length > 0) {
        breakdowns.postgres = await memoryBreakdown({
          scratch,
          dataDir: join(scratch, 'data-1'),
          env: { DATABASE_URL: postgresUrls[0] },
        });
      }
    } finally {
      if ('stop' in postgres) postgres.stop();
      await rm(scratch, { recursive: true, force: true });
    }
    const nodeAlone = summarize(nodeStartTimes(settings.rounds));
    const timing = Object.fromEntries(
      Object.entries(samples).map(([kind, values]) => [kind, summarize(values)]),
    );
    const resident = Object.fromEntries(
      Object.entries(memory).map(([kind, values]) => [kind, summarize(values)]),
    );
    const cpuTime = Object.fromEntries(
      Object.entries(cpu).map(([kind, values]) => [kind, summarize(values)]),
    );
    return {
      markdown: report({
        kinds,
        timing,
        cpuTime,
        resident,
        breakdowns,
        nodeAlone,
        profiles,
        machine,
        settings,
        othersLoad,
      }),
    };
  },
};

/**
 * The CPU time a process has used so far, all its threads and the children it waited for (the process
 * that creates a fresh DATA_DIR) included, from /proc: on a machine shared with other work the time to
 * healthy says more about the others than about the start, the CPU time much less.
 */
async function cpuMsOf(pid) {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    // utime, stime, cutime, cstime: fields 14–17 of proc(5), in clock ticks of 10 ms.
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * A server started on the same database, healthy and settled, then killed with SIGKILL: nothing is
 * closed, PGlite's files are left as after a crash and its pid file stays behind.
 */
async function killWhileHealthy({ dataDir, logFile, env }) {
  const server = await startServerProcess({ dataDir, logFile, env, timeoutMs: START_TIMEOUT_MS });
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const exited = once(server.child, 'exit');
  server.child.kill('SIGKILL');
  await exited;
}

/** The floor: Node.js starting and exiting with nothing to do. */
function nodeStartTimes(rounds) {
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', '']);
    times.push(performance.now() - started);
  }
  return times;
}

/**
 * One more first start and restart under `--cpu-prof`, stopped as soon as they are healthy: what the
 * main thread spent its CPU time on, and how long it waited (database files, key generation in
 * libuv's threads). Separate from the timed starts, which run without the profiler.
 */
async function profiledStarts(scratch) {
  const dataDir = join(scratch, 'data-profiled');
  const profiles = {};
  for (const kind of ['first', 'restart']) {
    const profileDir = join(scratch, `profile-${kind}`);
    const server = await startServerProcess({
      dataDir,
      logFile: join(scratch, `${kind}-profiled.log`),
      nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
      timeoutMs: START_TIMEOUT_MS,
    });
    await server.stop();
    const [file] = await readdir(profileDir);
    profiles[kind] = {
      msToHealthy: server.msToHealthy,
      ...summarizeProfile(JSON.parse(await readFile(join(profileDir, file), 'utf8'))),
    };
  }
  return profiles;
}

function report({
  kinds,
  timing,
  cpuTime,
  resident,
  breakdowns,
  nodeAlone,
  profiles,
  machine,
  settings,
  othersLoad,
}) {
  const restart = timing.killed.median;
  const met = restart <= BUDGET_MS;
  const memoryVerdicts = Object.entries(MEMORY_BUDGET_MIB)
    .filter(([database]) => kinds.some((kind) => KINDS[kind].database === database))
    .map(([database, budget]) => {
      const ofDatabase = kinds.filter((kind) => KINDS[kind].database === database);
      const worst = Math.max(...ofDatabase.map((kind) => resident[kind].median));
      return (
        `${DATABASE_NAMES[database]} ≤ ${budget} MiB — ${worst <= budget ? 'met' : 'missed'} ` +
        `(${ofDatabase.map((kind) => `${KINDS[kind].label.split(',')[0]} ${resident[kind].median.toFixed(0)} MiB`).join(', ')})`
      );
    });
  const lines = [
    '## Start',
    '',
    `Measured ${describeMachine(machine)}. Other processes used ` +
      `${Number.isFinite(othersLoad) ? `${(othersLoad * 100).toFixed(0)} %` : 'an unknown share'} of the ` +
      'CPU time during the timed starts (the higher, the noisier).',
    '',
    `**Budget: restart after a SIGKILL to healthy ≤ ${BUDGET_MS / 1000} s — ${met ? 'met' : 'missed'}** ` +
      `(median ${ms(restart)} ms, ${factor(restart, BUDGET_MS)} of the budget; the server's CPU time ` +
      `until then ${ms(cpuTime.killed.median)} ms).`,
    '',
    table(
      ['start', 'median', 'p10 – p90', 'CPU time (median)', 'runs', '÷ Node.js alone'],
      [
        ...kinds.map((kind) => [
          KINDS[kind].label,
          `${ms(timing[kind].median)} ms`,
          `${ms(timing[kind].p10)} – ${ms(timing[kind].p90)} ms`,
          `${ms(cpuTime[kind].median)} ms`,
          String(timing[kind].n),
          factor(timing[kind].median, nodeAlone.median),
        ]),
        [
          'Node.js alone (`node -e ""`)',
          `${ms(nodeAlone.median)} ms`,
          `${ms(nodeAlone.p10)} – ${ms(nodeAlone.p90)} ms`,
          '',
          String(nodeAlone.n),
          '1.00×',
        ],
      ],
    ),
    '',
    '### Memory',
    '',
    `**Budget: VmRSS once healthy, first start and restart alike: ${memoryVerdicts.join('; ')}.**`,
    '',
    table(
      ['start', 'VmRSS median', 'p10 – p90', 'runs'],
      kinds.map((kind) => [
        KINDS[kind].label,
        `${resident[kind].median.toFixed(0)} MiB`,
        `${resident[kind].p10.toFixed(0)} – ${resident[kind].p90.toFixed(0)} MiB`,
        String(resident[kind].n),
      ]),
    ),
    '',
    `Read from \`/proc/<pid>/status\` ${SETTLE_MS / 1000} s after the first healthy answer, before the stop.`,
    '',
    ...Object.entries(breakdowns).flatMap(([database, breakdown]) => [
      `Where it goes on ${DATABASE_NAMES[database]} (a restart, read once idle and again after one DOCX):`,
      '',
      table(['part', 'VmRSS'], breakdownRows(breakdown)),
      '',
    ]),
    'What keeps it there (apps/server/src/db/pglite.ts, pglite-thread.ts, pglite-create.ts, ' +
      'apps/server/src/templates/renderer.ts, apps/server/src/shared/worker-module.ts; ' +
      'package.json): ' +
      'a fresh DATA_DIR is created, with its migrations applied, by a process of its own that then ends (creating ' +
      'the files grows PGlite’s WebAssembly memory by about 500 MB, which WebAssembly never gives back, and what ' +
      'PGlite compiles and allocates for the migrations stays with that process); PGlite runs with ' +
      '`shared_buffers` of 16 MB instead of PostgreSQL’s 128 MB and `max_connections` of 10 (PostgreSQL ' +
      'touches both tables when it starts); render threads start as documents wait for one and end after ' +
      'a minute without one; fontkit (1.4 MB of JavaScript) loads with the first signing certificate; ' +
      'worker threads have a young generation of at most 8 MB and the main thread semi-spaces of 2 MB ' +
      '(`NODE_OPTIONS=--max-semi-space-size=2`); and `npm start` sets `MALLOC_MMAP_THRESHOLD_=4194304`, so that the C allocator gives blocks ' +
      'of 4 MiB and more back once freed (password hashing with scrypt takes 16 MB on each of libuv’s threads, and ' +
      'glibc otherwise keeps such blocks after the first one).',
    '',
    '### Where the time goes',
    '',
    'The server runs from its bundle (`npm run build` makes it: scripts/bundle-server.mjs; ' +
      'apps/server/src/server-bundle.ts), a few files instead of some 2,000 modules; what no first request needs ' +
      '(oidc-provider, nodemailer, the PDF and seal code, prom-client, ajv) loads later or never. ' +
      'One further start of each kind on the embedded database under `node --cpu-prof` (slower than the ' +
      'timed ones: the profiler costs time), stopped once healthy. "Busy" is the main thread’s CPU time by ' +
      'where the code comes from; "waiting" is the share of the profile in which it was idle (files, the ' +
      'database, libuv’s threads).',
    '',
    table(
      ['start', 'healthy after (profiled)', 'busy', 'waiting', 'busy by origin', 'hottest functions'],
      Object.entries(profiles).map(([kind, p]) => [
        KINDS[kind].label,
        `${ms(p.msToHealthy)} ms`,
        `${ms(p.busyMs)} ms`,
        `${(p.idleShare * 100).toFixed(0)} %`,
        p.groups
          .slice(0, 6)
          .map((g) => `${g.name} ${(g.share * 100).toFixed(0)} %`)
          .join(', '),
        p.functions
          .slice(0, 3)
          .map((f) => `${f.name} ${(f.share * 100).toFixed(0)} %`)
          .join(', '),
      ]),
    ),
    '',
    '### How measured',
    '',
    `\`node ${SERVER_ENTRY.slice(SERVER_ENTRY.indexOf('apps/'))}\` with the environment \`npm start\` gives ` +
      'it, what `npm start` runs once it has built the server and the SPA; the build is not part of the ' +
      'figures (`npm run bench` builds before all suites). The server starts with the embedded defaults ' +
      '(PGlite under DATA_DIR, embedded identity provider, demo data) on 127.0.0.1 and a free port, logging ' +
      'at `info` to a file; on PostgreSQL with `DATABASE_URL` naming a database of a throwaway server of ' +
      'Debian’s package. The time runs from the spawn of the process until `GET /backend/health` (polled ' +
      'every 10 ms) answers 200; the CPU time is the server process’s (every thread, and the process that ' +
      'creates a fresh DATA_DIR) from `/proc/<pid>/stat` at that moment. Then the server gets SIGTERM and ' +
      'is waited for; before a restart after SIGKILL a server on the same database was started, left ' +
      `${SETTLE_MS / 1000} s and killed. A first start has a fresh ` +
      'DATA_DIR or an empty database (PGlite creates its cluster, the migrations run, the identity provider ' +
      'creates its keys, demo data is seeded); the restart that follows uses the same. ' +
      `${settings.rounds} rounds of each kind, medians of each.`,
  ];
  return lines.join('\n');
}
