import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { apiRequests, checkRequest, LOAD_USER, MATCH_ID } from '../lib/api-requests.mjs';
import { loadFigures } from '../lib/load.mjs';
import { cpuSnapshot, describeMachine, othersShare } from '../lib/machine.mjs';
import { table } from '../lib/markdown.mjs';
import { MEMORY_PROBE, residentBytes, threadMemory } from '../lib/memory.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { signInDemoAccount } from '../lib/sign-in.mjs';
import { summarize } from '../lib/stats.mjs';

/**
 * Soak: mixed traffic at 20 connections against the built server as its own process for ten minutes;
 * no 5xx, and the server's memory after the warm-up against at the end.
 */

const FULL = { seconds: 600, warmupSeconds: 60, windowSeconds: 60, sampleSeconds: 5, reportEverySeconds: 60 };
const QUICK = { seconds: 30, warmupSeconds: 10, windowSeconds: 5, sampleSeconds: 1, reportEverySeconds: 5 };
const CONNECTIONS = 20;
const BUDGET_GROWTH = 0.1;
/** Issue "Operating it for years": the server stays under this all through the soak. */
const BUDGET_RSS_MIB = 500;

export default {
  name: 'soak',
  title: 'Soak',

  async run({ quick, machine, log }) {
    const settings = quick ? QUICK : FULL;
    const scratch = await mkdtemp(join(tmpdir(), 'bench-soak-'));
    const dataDir = join(scratch, 'data');
    const probeDir = await mkdtemp(join(scratch, 'probe-'));
    const server = await startServerProcess({
      dataDir,
      logFile: join(scratch, 'server.log'),
      env: { DEMO_DATA: 'true', RATE_LIMIT_PER_MINUTE: '100000', MEMORY_PROBE_DIR: probeDir },
      nodeOptions: ['--import', MEMORY_PROBE],
      ipc: true,
    });
    try {
      const token = await signInDemoAccount(server.baseUrl, LOAD_USER);
      const requests = await apiRequests(token);
      for (const request of Object.values(requests)) await checkRequest(server.baseUrl, request);
      const { response } = await checkRequest(server.baseUrl, requests.docx);
      const documentId = response.headers.get('x-document-id');
      const read = {
        title: 'Document read',
        method: 'GET',
        path: `/backend/documents/${documentId}/file`,
        headers: requests.users.headers,
      };
      await checkRequest(server.baseUrl, read);
      const mix = [requests.match, requests.users, requests.docx, read, requests.envelope];
      log(`server pid ${server.child.pid} on ${server.baseUrl}; mix: ${mix.map((r) => r.title).join(', ')}`);

      // Idle, the render threads wait in Atomics.wait and do not answer: those that do are the main
      // thread and the database's.
      const idle = await threadMemory(server, probeDir);
      const databaseThreads = new Set(idle.threads.filter((t) => !t.main).map((t) => t.threadId));
      const cpuAtStart = cpuSnapshot();
      const { result, samples, threads } = await soak(server, mix, settings, log, probeDir);
      const othersLoad = othersShare(cpuAtStart, cpuSnapshot());
      return {
        markdown: report({ result, samples, threads, databaseThreads, mix, settings, machine, othersLoad }),
      };
    } finally {
      await server.stop();
      await rm(scratch, { recursive: true, force: true });
    }
  },
};

/**
 * The load runs in this process: the server is a process of its own, so the load generator shares
 * the machine with it but not its event loop. Every `sampleSeconds` a sample records the answers since
 * the last one (by status class) and the server's memory.
 */
async function soak(server, mix, settings, log, probeDir) {
  const instance = autocannon({
    url: server.baseUrl,
    connections: CONNECTIONS,
    duration: settings.seconds,
    idReplacement: true,
    requests: mix.map(({ method, path, headers, body }) => ({ method, path, headers, body })),
  });
  let window = { answers: 0, serverErrors: 0, otherNon2xx: 0, socketErrors: 0 };
  instance.on('response', (_client, status) => {
    window.answers++;
    if (status >= 500) window.serverErrors++;
    else if (status >= 300) window.otherNon2xx++;
  });
  instance.on('reqError', () => {
    window.socketErrors++;
  });
  const done = once(instance, 'done');

  const samples = [];
  // Once, in the last window, while the load runs: every thread's own memory.
  let threads;
  const started = performance.now();
  let last = started;
  let finished = false;
  done.then(() => {
    finished = true;
  });
  while (!finished) {
    await Promise.race([sleep(settings.sampleSeconds * 1000), done]);
    const now = performance.now();
    const memory = await serverMemory(server);
    samples.push({ at: (now - started) / 1000, seconds: (now - last) / 1000, ...window, ...memory });
    if (!threads && !finished && samples.at(-1).at >= settings.seconds - settings.windowSeconds) {
      threads = await threadMemory(server, probeDir);
    }
    window = { answers: 0, serverErrors: 0, otherNon2xx: 0, socketErrors: 0 };
    last = now;
    const sample = samples.at(-1);
    if (
      Math.floor(sample.at / settings.reportEverySeconds) >
      Math.floor((sample.at - sample.seconds) / settings.reportEverySeconds)
    ) {
      log(
        `${sample.at.toFixed(0)} s: ${(sample.answers / sample.seconds).toFixed(0)} req/s, RSS ${mib(sample.rss)}, ` +
          `heap used ${mib(sample.heapUsed)}, 5xx so far ${samples.reduce((n, s) => n + s.serverErrors, 0)}`,
      );
    }
  }
  const [result] = await done;
  return { result, samples, threads };
}

/** RSS as the kernel counts it for the whole process (render threads included), heap from the process. */
async function serverMemory(server) {
  const rss = await residentBytes(server.child.pid);
  let memory = {};
  try {
    const answer = once(server.child, 'message', { signal: AbortSignal.timeout(5000) });
    server.child.send('memory');
    [{ memory }] = await answer;
  } catch {
    // a server too busy to answer within 5 s: this sample has no heap figure
  }
  return { rss, heapUsed: memory.heapUsed ?? Number.NaN, externalMemory: memory.external ?? Number.NaN };
}

const mib = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1024 ** 2).toFixed(1)} MiB` : '–');

function report({ result, samples, threads, databaseThreads, mix, settings, machine, othersLoad }) {
  const figures = loadFigures(result);
  const during = (from, to) => samples.filter((s) => s.at > from && s.at <= to);
  const median = (list, key) => summarize(list.map((s) => s[key]).filter(Number.isFinite)).median;
  const afterWarmup = during(settings.warmupSeconds, settings.warmupSeconds + settings.windowSeconds);
  const end = during(settings.seconds - settings.windowSeconds, Number.POSITIVE_INFINITY);
  const rssWarm = median(afterWarmup, 'rss');
  const rssEnd = median(end, 'rss');
  const growth = rssEnd / rssWarm - 1;
  const heapWarm = median(afterWarmup, 'heapUsed');
  const heapEnd = median(end, 'heapUsed');
  const serverErrors = samples.reduce((n, s) => n + s.serverErrors, 0);
  const rssMax = Math.max(...samples.map((s) => s.rss).filter(Number.isFinite));
  const met = growth <= BUDGET_GROWTH && rssMax <= BUDGET_RSS_MIB * 1024 ** 2;
  const percent = (value) =>
    Number.isFinite(value) ? `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(1)} %` : '–';

  const overTime = [];
  for (let from = 0; from < settings.seconds; from += settings.reportEverySeconds) {
    const part = during(from, from + settings.reportEverySeconds);
    if (part.length === 0) continue;
    const seconds = part.reduce((n, s) => n + s.seconds, 0);
    overTime.push([
      `${from} – ${from + settings.reportEverySeconds} s`,
      (part.reduce((n, s) => n + s.answers, 0) / seconds).toFixed(0),
      String(part.reduce((n, s) => n + s.serverErrors, 0)),
      String(part.reduce((n, s) => n + s.otherNon2xx + s.socketErrors, 0)),
      mib(median(part, 'rss')),
      mib(median(part, 'heapUsed')),
    ]);
  }

  const lines = [
    '## Soak',
    '',
    `Measured ${describeMachine(machine)}. Other processes used ` +
      `${Number.isFinite(othersLoad) ? `${(othersLoad * 100).toFixed(0)} %` : 'an unknown share'} of the ` +
      'CPU time during the soak (the load generator, in the bench process, is one of them).',
    '',
    `**Budget: memory growth after the warm-up ≤ ${BUDGET_GROWTH * 100} %, RSS under ${BUDGET_RSS_MIB} MiB ` +
      `throughout, no 5xx — ${met && serverErrors === 0 ? 'met' : 'missed'}** (RSS ${mib(rssWarm)} after the ` +
      `first ${settings.warmupSeconds} s, ${mib(rssEnd)} at the end: ${percent(growth)}; highest ` +
      `${mib(rssMax)}; ${serverErrors} answers 5xx).`,
    '',
    table(
      [
        'requests',
        'requests/s',
        'p50',
        'p99',
        '5xx',
        'other non-2xx',
        'socket errors',
        'heap used after warm-up → end',
      ],
      [
        [
          String(figures.requests),
          figures.perSecond.toFixed(0),
          `${figures.p50} ms`,
          `${figures.p99} ms`,
          String(figures.serverErrors),
          String(figures.non2xx - figures.serverErrors),
          String(figures.errors + figures.timeouts),
          `${mib(heapWarm)} → ${mib(heapEnd)} (${percent(heapEnd / heapWarm - 1)})`,
        ],
      ],
    ),
    '',
    `Answers by status: ${Object.entries(figures.byStatus)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ')}.`,
    '',
    '### Over time',
    '',
    table(
      ['time', 'requests/s', '5xx', 'other non-2xx and errors', 'RSS (median)', 'heap used (median)'],
      overTime,
    ),
    '',
    ...threadRows(threads, databaseThreads),
    '### How measured',
    '',
    'The built server runs as its own process (`node apps/server/dist/main.js` with the embedded ' +
      'defaults, a fresh DATA_DIR, DEMO_DATA=true, RATE_LIMIT_PER_MINUTE=100000, logging at `info` to a ' +
      `file), signed in as ${LOAD_USER} through the embedded identity provider. autocannon, in the bench ` +
      `process, keeps ${CONNECTIONS} connections busy for ${settings.seconds} s; each connection sends in ` +
      `turn: ${mix.map((r) => r.title).join(', ')} (demo match ${MATCH_ID}; every envelope with a fresh ` +
      'Idempotency-Key; the document read fetches one DOCX generated before the soak). Every ' +
      `${settings.sampleSeconds} s a sample counts the answers by status class and reads the server's ` +
      'memory: RSS from the kernel (`/proc/<pid>/status` VmRSS, the whole process with its render ' +
      'threads) and the main thread’s JavaScript heap in use, answered over an IPC channel by a module ' +
      'preloaded into the server (`--import bench/lib/memory-probe.mjs`; no forced GC, so the heap ' +
      `figure moves with V8's collection cycles). Memory "after the warm-up" is the median of the samples ` +
      `from ${settings.warmupSeconds} s to ${settings.warmupSeconds + settings.windowSeconds} s, "at the ` +
      `end" the median of the last ${settings.windowSeconds} s; growth is their ratio. Every generated ` +
      'document and envelope is stored in the database, so the data grows through the whole soak. Where ' +
      'the memory goes is read once in the last window, under load: each thread writes its V8 heap and ' +
      'what it holds outside it when the probe gets SIGUSR2 (the database thread is the one that answered ' +
      'before the load, when the idle render threads could not).',
  ];
  return lines.join('\n');
}

/** The section on where the memory goes, from the reading in the last window. */
function threadRows(threads, databaseThreads) {
  if (!threads) return [];
  const size = (t) => t.heap + t.external;
  const render = threads.threads.filter((t) => !t.main && !databaseThreads.has(t.threadId));
  const rows = [
    ...threads.threads.filter((t) => t.main).map((t) => ['main thread', t]),
    ...threads.threads
      .filter((t) => databaseThreads.has(t.threadId))
      .map((t) => ['database thread (PGlite)', t]),
    ...render.map((t, index) => [`render thread ${index + 1}`, t]),
  ].map(([label, t]) => [
    label,
    `${t.heap.toFixed(0)} MiB`,
    `${t.external.toFixed(0)} MiB`,
    `${size(t).toFixed(0)} MiB`,
  ]);
  const counted = threads.threads.reduce((sum, t) => sum + size(t), 0);
  rows.push([
    'rest: code, Node.js and V8 themselves, the C allocator',
    '',
    '',
    `${(threads.vmRss - counted).toFixed(0)} MiB`,
  ]);
  rows.push(['**VmRSS**', '', '', `${threads.vmRss.toFixed(0)} MiB`]);
  return [
    '### Where the memory goes',
    '',
    table(['part', 'V8 heap', 'outside the heap (WebAssembly, buffers)', 'together'], rows),
    '',
  ];
}
