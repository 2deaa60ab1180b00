import { setTimeout as sleep } from 'node:timers/promises';
import { residentMiB } from '../lib/memory.mjs';
import { signInDemoAccount } from '../lib/sign-in.mjs';
import { cpuSample, othersShare } from './others-cpu.mjs';

/** One API call with a user's token; an answer of 300 or more throws with its body. */
export async function call(baseUrl, token, method, path, body) {
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

/** The item statuses that count as made (the page's `done`; those held for Freigabe included). */
const MADE = new Set(['done', 'approval']);

/**
 * One batch, measured from outside the server: checked as legal staff (`request(api)` answers the body
 * of POST /backend/batches, after asking the API what it needs), then `afterCheck(batch)` (it throws to
 * stop, or answers notes for the report), started, and followed as the batch page follows it — every
 * 250 ms — until it finished; meanwhile a colleague looks up matches one after another and the server's
 * VmRSS is read every 200 ms. Also answered: the share of the machine other processes used in the run.
 *
 * @param {{ baseUrl: string, child: import('node:child_process').ChildProcess }} server
 * @param {{ request: (api: (method: string, path: string, body?: object) => Promise<any>) => Promise<object>,
 *   afterCheck: (batch: object) => string[], databaseUrl?: string }} options
 */
export async function measureBatch(server, { request, afterCheck, databaseUrl }) {
  const { baseUrl } = server;
  const legal = await signInDemoAccount(baseUrl, 'legal@demo.local');
  const colleague = await signInDemoAccount(baseUrl, 'berater@demo.local');
  const api = (method, path, body) => call(baseUrl, legal, method, path, body);
  const body = await request(api);
  const checkStarted = performance.now();
  const batch = await api('POST', '/backend/batches', body);
  const checkMs = performance.now() - checkStarted;
  const notes = afterCheck(batch);
  const deals = batch.items.length;

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
  const cpuAtStart = cpuSample(server.child.pid, databaseUrl);
  let finished;
  let seenAt;
  let othersCpu;
  try {
    await api('POST', `/backend/batches/${batch.id}/start`);
    // The page reads the progress; each reading is compared with the documents stored by then.
    const readings = [];
    while (!finished) {
      await sleep(250);
      const read = await api('GET', `/backend/batches/${batch.id}`);
      readings.push({ at: Date.now(), done: read.counts.done });
      if (read.status === 'finished') finished = { read, readings };
      else if (read.status !== 'running') throw new Error(`batch ${read.status}`);
    }
    seenAt = Date.now();
    othersCpu = othersShare(cpuAtStart, cpuSample(server.child.pid, databaseUrl));
  } finally {
    running = false;
    await Promise.allSettled([lookup, memory]);
  }
  await Promise.all([lookup, memory]);
  const { read, readings } = finished;
  // A reading is behind by how long ago the first document it does not count was stored.
  const stored = read.items
    .filter((item) => MADE.has(item.status))
    .map((item) => Date.parse(item.finishedAt))
    .sort((a, b) => a - b);
  const lags = readings.map(({ at, done }) => {
    const firstNotShown = stored[done];
    return firstNotShown !== undefined && firstNotShown < at ? at - firstNotShown : 0;
  });
  const ended = read.items.map((item) => Date.parse(item.finishedAt ?? '')).filter(Number.isFinite);
  const runSeconds = (Math.max(...ended) - Date.parse(read.startedAt)) / 1000;
  const failed = read.items.filter((item) => item.status === 'failed');
  if (failed.length > 0)
    notes.push(
      `${failed.length} of ${deals} failed, e.g. ${[...new Set(failed.map((item) => item.error))].slice(0, 3).join(' / ')}`,
    );
  if (read.counts.waitingApproval > 0)
    notes.push(`${read.counts.waitingApproval} of ${deals} made but held for Freigabe`);
  const sorted = [...lookups].sort((a, b) => a - b);
  return {
    batch: read,
    deals,
    made: read.counts.done - read.counts.waitingApproval,
    checkMs,
    runSeconds,
    wallSeconds: (seenAt - started) / 1000,
    perSecond: stored.length / runSeconds,
    lookups: lookups.length,
    lookupMedian: sorted[Math.floor((sorted.length - 1) * 0.5)],
    lookupP99: sorted[Math.floor((sorted.length - 1) * 0.99)],
    rssMaxMiB: Math.max(...rss),
    lagMaxMs: Math.max(...lags),
    othersCpu,
    notes,
  };
}
