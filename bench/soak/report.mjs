import { LOAD_USER } from '../lib/api-requests.mjs';
import { describeMachine } from '../lib/machine.mjs';
import { table } from '../lib/markdown.mjs';
import { summarize } from '../lib/stats.mjs';
import { BACKUP_FLOW, FLOWS } from './flows.mjs';

/** Issue "Fast where people wait, round two": VmRSS through a day's mix, by database. */
export const BUDGET_MIB = { embedded: 350, postgres: 250 };
/**
 * Two minutes after the load, VmRSS is back within this share above the reading after one round of every
 * flow: a freshly started server has not yet loaded what the first use of each page brings.
 */
const BUDGET_BACK = 0.1;
/** Idle after start, on the embedded database. */
const BUDGET_IDLE_MIB = 250;
const DATABASE_NAMES = { embedded: 'PGlite (embedded)', postgres: 'PostgreSQL' };

const MiB = 1024 ** 2;
const mib = (bytes) => (Number.isFinite(bytes) ? `${(bytes / MiB).toFixed(0)} MiB` : '–');
const percent = (value) =>
  Number.isFinite(value) ? `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(0)} %` : '–';
const median = (list, key) => summarize(list.map((s) => s[key]).filter(Number.isFinite)).median;

/** The soak's section of docs/performance.md. */
export function report({ runs, settings, workers, machine, othersLoad }) {
  const figures = runs.map((run) => ({ ...run, ...readings(run, settings) }));
  const verdicts = figures.map((f) => {
    const budget = BUDGET_MIB[f.database] * MiB;
    const met = f.peak.rss <= budget && f.after.rss <= f.warmed.rss * (1 + BUDGET_BACK) && f.failed === 0;
    return (
      `${DATABASE_NAMES[f.database]}: peak ≤ ${BUDGET_MIB[f.database]} MiB and back within ` +
      `${BUDGET_BACK * 100} % of the reading after one round of every flow — ${met ? 'met' : 'missed'} ` +
      `(idle ${mib(f.idle.rss)}, after one round ${mib(f.warmed.rss)}, peak ${mib(f.peak.rss)}, end of ` +
      `load ${mib(f.end.rss)}, ${settings.afterSeconds} s after ${mib(f.after.rss)}: ` +
      `${percent(f.after.rss / f.warmed.rss - 1)} of that round's; ${f.failed} flows failed)`
    );
  });
  const embedded = figures.find((f) => f.database === 'embedded');
  const lines = [
    '## Soak: a working day’s mix',
    '',
    `Measured ${describeMachine(machine)}. Other processes used ` +
      `${Number.isFinite(othersLoad) ? `${(othersLoad * 100).toFixed(0)} %` : 'an unknown share'} of the ` +
      'CPU time during the soak (the flows’ client, in the bench process, is one of them).',
    '',
    `**Budget: ${verdicts.join('; ')}.**`,
    '',
    ...(embedded
      ? [
          `**Budget: idle after start on PGlite ≤ ${BUDGET_IDLE_MIB} MiB — ` +
            `${embedded.idle.rss <= BUDGET_IDLE_MIB * MiB ? 'met' : 'missed'}** (${mib(embedded.idle.rss)}).`,
          '',
        ]
      : []),
    table(
      ['database', 'reading', 'VmRSS', 'heap used', 'heap total', 'external', 'of it array buffers'],
      figures.flatMap((f) =>
        [
          ['idle after start', f.idle],
          ['after one round of every flow', f.warmed],
          ['peak under load', f.peak],
          [`end of load (median of the last ${settings.endWindowSeconds} s)`, f.end],
          [`${settings.afterSeconds} s after the load`, f.after],
        ].map(([label, r]) => [
          DATABASE_NAMES[f.database],
          label,
          mib(r.rss),
          mib(r.heapUsed),
          mib(r.heapTotal),
          mib(r.external),
          mib(r.arrayBuffers),
        ]),
      ),
    ),
    '',
    '### Flows',
    '',
    table(
      ['database', ...FLOWS.map((f) => f.name), 'answers'],
      figures.map((f) => [
        DATABASE_NAMES[f.database],
        ...FLOWS.map(({ name }) => {
          const { done, failed, ms } = f.flows[name];
          const p50 = summarize(ms).median;
          return `${done}${failed ? ` (${failed} failed)` : ''}, p50 ${Number.isFinite(p50) ? p50.toFixed(0) : '–'} ms`;
        }),
        Object.entries(f.counts)
          .map(([kind, n]) => `${kind}: ${n}`)
          .join(', '),
      ]),
    ),
    '',
    ...figures.flatMap((f) =>
      f.failures.length
        ? [`First failures on ${DATABASE_NAMES[f.database]}: ${f.failures.join('; ')}`, '']
        : [],
    ),
    '### Over time',
    '',
    table(
      ['database', ...overTimeColumns(figures[0], settings).map(([label]) => label)],
      figures.map((f) => [
        DATABASE_NAMES[f.database],
        ...overTimeColumns(f, settings).map(([, value]) => value),
      ]),
    ),
    '',
    ...figures.map(
      (f) =>
        `On ${DATABASE_NAMES[f.database]} the peak came ${(f.peak.at / 60).toFixed(1)} min into the load, ` +
        `while ${f.peak.running.length ? f.peak.running.join('; ') : 'no flow'} ran; the highest reading ` +
        `while no backup ran was ${mib(f.peakWithoutBackup.rss)}.`,
    ),
    '',
    '### Where the memory goes',
    '',
    table(
      ['database', 'reading', 'main thread', 'database thread', 'render threads', 'rest', 'VmRSS'],
      figures.flatMap((f) =>
        [
          ['idle after start', f.idle.threads],
          ['after one round of every flow', f.warmed.threads],
          ['end of load', f.endOfLoad.threads],
          [`${settings.afterSeconds} s after`, f.after.threads],
        ].map(([label, reading]) => [DATABASE_NAMES[f.database], label, ...threadColumns(reading)]),
      ),
    ),
    '',
    'Each thread’s V8 heap and what it holds outside it (WebAssembly memory, buffers), as it reports ' +
      'them; "rest" is VmRSS less all of them: code, Node.js and V8 themselves, the C allocator’s ' +
      'arenas. A render thread waiting for its next document in `Atomics.wait` does not answer, so ' +
      'render threads count only where they were busy; what they hold otherwise is in "rest".',
    '',
    '### How measured',
    '',
    'The built server runs as its own process (`node apps/server/dist/main.js` with the environment ' +
      '`npm start` gives it, DEMO_DATA=true, RATE_LIMIT_PER_MINUTE=100000, logging at `info` to a file), ' +
      'once on PGlite under a fresh DATA_DIR and once on an empty database of a throwaway PostgreSQL ' +
      'server of Debian’s package, both at the same time. Each is started once to create its database, stopped, and started ' +
      `again; the idle reading is ${5} s after that restart is healthy. Each flow then runs once, one ` +
      'after the other, and 5 s later comes the reading the load is held against ("after one round of ' +
      `every flow"). Then ${workers} workers in the ` +
      `bench process run the flows for ${settings.minutes} min, each worker in rounds; a flow comes ` +
      'every round or every so many (in brackets): ' +
      FLOWS.map((f) => `${f.name}${f.every > 1 ? ` (${f.every})` : ''}`).join('; ') +
      `. Signed in through the embedded identity provider as ${LOAD_USER} (generation, envelopes, ` +
      'templates), leitung@demo.local (approvals) and ops@demo.local (administration). The flows take the ' +
      'demo matches (config/demo-matches.json) in turn, envelopes those whose margin needs no approval ' +
      'under the default rules; every envelope ' +
      'goes to a project partner with an address of its own, who opens the link from the mail folder, ' +
      'confirms the mailed code and signs. Every document, envelope and template version stays in the ' +
      `database, so the data grows through the soak. Every ${settings.sampleSeconds} s a sample reads ` +
      'VmRSS from `/proc/<pid>/status` and the main thread’s `process.memoryUsage()` over an IPC channel ' +
      '(`--import bench/lib/memory-probe.mjs`); no GC is forced, the server is left alone for ' +
      `${settings.afterSeconds} s after the load, and the last sample is "after the load".`,
  ];
  return lines.join('\n');
}

function readings({ samples, stoppedAt, flows }, settings) {
  const loaded = samples.filter((s) => s.at <= stoppedAt);
  const highest = (list) => list.reduce((best, s) => (s.rss > best.rss ? s : best), { rss: 0 });
  const peak = highest(loaded);
  const peakWithoutBackup = highest(loaded.filter((s) => !s.running.includes(BACKUP_FLOW)));
  const window = loaded.filter((s) => s.at >= stoppedAt - settings.endWindowSeconds);
  const end = Object.fromEntries(
    ['rss', 'heapUsed', 'heapTotal', 'external', 'arrayBuffers'].map((key) => [key, median(window, key)]),
  );
  const failed = Object.values(flows).reduce((n, f) => n + f.failed, 0);
  return { peak, peakWithoutBackup, end, failed };
}

/** VmRSS medians in six slices of the load and the reading after it. */
function overTimeColumns({ samples, stoppedAt }, settings) {
  const slices = 6;
  const columns = [];
  for (let i = 0; i < slices; i++) {
    const from = (stoppedAt * i) / slices;
    const to = (stoppedAt * (i + 1)) / slices;
    const part = samples.filter((s) => s.at > from && s.at <= to);
    columns.push([`${(from / 60).toFixed(0)}–${(to / 60).toFixed(0)} min`, mib(median(part, 'rss'))]);
  }
  columns.push([`${settings.afterSeconds} s after`, mib(samples.at(-1).rss)]);
  return columns;
}

/**
 * PGlite's thread is the one that holds its WebAssembly memory (128 MiB at the least) outside its heap;
 * a render thread holds a few MiB there. Not by thread ID: the server replaces the database's thread
 * once it is quiet after a busy spell (apps/server/src/db/pglite-thread.ts).
 */
const DATABASE_THREAD_EXTERNAL_MIB = 64;

function threadColumns(reading) {
  const size = (t) => t.heap + t.external;
  const sum = (list) => list.reduce((n, t) => n + size(t), 0);
  const isDatabase = (t) => !t.main && t.external >= DATABASE_THREAD_EXTERNAL_MIB;
  const main = reading.threads.filter((t) => t.main);
  const database = reading.threads.filter(isDatabase);
  const render = reading.threads.filter((t) => !t.main && !isDatabase(t));
  const rest = reading.vmRss - sum(reading.threads);
  const m = (value) => `${value.toFixed(0)} MiB`;
  return [
    m(sum(main)),
    database.length ? m(sum(database)) : '–',
    render.length ? `${m(sum(render))} (${render.length})` : '–',
    m(rest),
    m(reading.vmRss),
  ];
}
