import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSnapshot, describeMachine, othersShare } from '../lib/machine.mjs';
import { table } from '../lib/markdown.mjs';
import { summarizeProfile } from '../lib/profile.mjs';
import { SERVER_ENTRY, startServerProcess } from '../lib/server-process.mjs';
import { factor, ms, summarize } from '../lib/stats.mjs';

/**
 * Start (DESIGN §12): `node apps/server/dist/main.js`, what `npm start` runs after building, to a
 * healthy `GET /backend/health`, on a fresh DATA_DIR and again on the same one.
 */

const FULL = { rounds: 5 };
const QUICK = { rounds: 2 };
const BUDGET_MS = 3000;
/** Issue "Operating it for years": resident memory once healthy, first start and restart alike. */
const MEMORY_BUDGET_MIB = 350;
/** Once healthy the server still finishes what it started (demo seeding, key caches): read after this. */
const SETTLE_MS = 2000;

/** The process's resident memory (VmRSS) in MiB, from /proc; NaN where there is no /proc. */
async function residentMiB(pid) {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
    return kib / 1024;
  } catch {
    return Number.NaN;
  }
}

const KINDS = {
  first: 'first start, fresh DATA_DIR',
  restart: 'restart, same DATA_DIR',
};

export default {
  name: 'start',
  title: 'Start',

  async run({ quick, machine, log }) {
    const settings = quick ? QUICK : FULL;
    const scratch = await mkdtemp(join(tmpdir(), 'bench-start-'));
    const samples = { first: [], restart: [] };
    const memory = { first: [], restart: [] };
    let othersLoad = Number.NaN;
    let profiles;
    try {
      const cpuAtStart = cpuSnapshot();
      for (let round = 1; round <= settings.rounds; round++) {
        const dataDir = join(scratch, `data-${round}`);
        for (const kind of Object.keys(KINDS)) {
          const server = await startServerProcess({
            dataDir,
            logFile: join(scratch, `${kind}-${round}.log`),
          });
          await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          const rss = await residentMiB(server.child.pid);
          await server.stop();
          samples[kind].push(server.msToHealthy);
          memory[kind].push(rss);
          log(
            `round ${round}: ${KINDS[kind]} healthy after ${ms(server.msToHealthy)} ms, ` +
              `VmRSS ${rss.toFixed(0)} MiB`,
          );
        }
      }
      othersLoad = othersShare(cpuAtStart, cpuSnapshot());
      profiles = await profiledStarts(scratch);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    const nodeAlone = summarize(nodeStartTimes(settings.rounds));
    const timing = Object.fromEntries(
      Object.entries(samples).map(([kind, values]) => [kind, summarize(values)]),
    );
    const resident = Object.fromEntries(
      Object.entries(memory).map(([kind, values]) => [kind, summarize(values)]),
    );
    return { markdown: report({ timing, resident, nodeAlone, profiles, machine, settings, othersLoad }) };
  },
};

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
  for (const kind of Object.keys(KINDS)) {
    const profileDir = join(scratch, `profile-${kind}`);
    const server = await startServerProcess({
      dataDir,
      logFile: join(scratch, `${kind}-profiled.log`),
      nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
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

function report({ timing, resident, nodeAlone, profiles, machine, settings, othersLoad }) {
  const restart = timing.restart.median;
  const met = restart <= BUDGET_MS;
  const lines = [
    '## Start',
    '',
    `Measured ${describeMachine(machine)}. Other processes used ` +
      `${Number.isFinite(othersLoad) ? `${(othersLoad * 100).toFixed(0)} %` : 'an unknown share'} of the ` +
      'CPU time during the timed starts (the higher, the noisier).',
    '',
    `**Budget (DESIGN §12): restart to healthy ≤ ${BUDGET_MS / 1000} s — ${met ? 'met' : 'missed'}** ` +
      `(median ${ms(restart)} ms, ${factor(restart, BUDGET_MS)} of the budget).`,
    '',
    table(
      ['start', 'median', 'p10 – p90', 'runs', '÷ Node.js alone'],
      [
        ...Object.entries(KINDS).map(([kind, label]) => [
          label,
          `${ms(timing[kind].median)} ms`,
          `${ms(timing[kind].p10)} – ${ms(timing[kind].p90)} ms`,
          String(timing[kind].n),
          factor(timing[kind].median, nodeAlone.median),
        ]),
        [
          'Node.js alone (`node -e ""`)',
          `${ms(nodeAlone.median)} ms`,
          `${ms(nodeAlone.p10)} – ${ms(nodeAlone.p90)} ms`,
          String(nodeAlone.n),
          '1.00×',
        ],
      ],
    ),
    '',
    '### Memory',
    '',
    `**Budget: VmRSS ≤ ${MEMORY_BUDGET_MIB} MiB once healthy, first start and restart alike — ` +
      `${Math.max(resident.first.median, resident.restart.median) <= MEMORY_BUDGET_MIB ? 'met' : 'missed'}** ` +
      `(first start ${resident.first.median.toFixed(0)} MiB, restart ${resident.restart.median.toFixed(0)} MiB).`,
    '',
    table(
      ['start', 'VmRSS median', 'p10 – p90', 'runs'],
      Object.entries(KINDS).map(([kind, label]) => [
        label,
        `${resident[kind].median.toFixed(0)} MiB`,
        `${resident[kind].p10.toFixed(0)} – ${resident[kind].p90.toFixed(0)} MiB`,
        String(resident[kind].n),
      ]),
    ),
    '',
    `Read from \`/proc/<pid>/status\` ${SETTLE_MS / 1000} s after the first healthy answer, before the stop. ` +
      'A fresh DATA_DIR is created by a database thread of its own that then ends (the creation grows ' +
      'PGlite’s WebAssembly memory by about 500 MB, which WebAssembly never gives back); the thread that ' +
      'serves opens the files afresh, as on a restart.',
    '',
    '### Where the time goes',
    '',
    'One further start of each kind under `node --cpu-prof` (slower than the timed ones: the profiler ' +
      'costs time), stopped once healthy. "Busy" is the main thread’s CPU time by where the code comes ' +
      'from; "waiting" is the share of the profile in which it was idle (files, the database, libuv’s threads).',
    '',
    table(
      ['start', 'healthy after (profiled)', 'busy', 'waiting', 'busy by origin', 'hottest functions'],
      Object.entries(KINDS).map(([kind, label]) => {
        const p = profiles[kind];
        return [
          label,
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
        ];
      }),
    ),
    '',
    '### How measured',
    '',
    `\`node ${SERVER_ENTRY.slice(SERVER_ENTRY.indexOf('apps/'))}\`, what \`npm start\` runs once it has built ` +
      'the server and the SPA; the build is not part of the figures (`npm run bench` builds before all ' +
      'suites). The server starts with the embedded defaults (PGlite under DATA_DIR, embedded identity ' +
      'provider, demo data) on 127.0.0.1 and a free port, logging at `info` to a file. The time runs from ' +
      'the spawn of the process until `GET /backend/health` (polled every 10 ms) answers 200; then the ' +
      'server gets SIGTERM and is waited for. A first start has a fresh DATA_DIR (PGlite creates its ' +
      'cluster, the migrations run, the identity provider creates its keys, demo data is seeded); the ' +
      `restart that follows uses the same DATA_DIR. ${settings.rounds} rounds of first start and restart, ` +
      'medians of each.',
  ];
  return lines.join('\n');
}
