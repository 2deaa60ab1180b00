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
          await server.stop();
          samples[kind].push(server.msToHealthy);
          log(`round ${round}: ${KINDS[kind]} healthy after ${ms(server.msToHealthy)} ms`);
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
    return { markdown: report({ timing, nodeAlone, profiles, machine, settings, othersLoad }) };
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

function report({ timing, nodeAlone, profiles, machine, settings, othersLoad }) {
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
