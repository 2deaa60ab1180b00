/**
 * Times cases against each other in one run. Every round runs each case once, starting one case further
 * each round, so a slow minute of a shared 2-core machine (or a GC caused by one case) falls on all
 * cases alike instead of on whichever case happened to run then.
 *
 * @param {{ id: string, run: () => unknown }[]} cases
 * @param {{ warmupRounds: number, minRounds: number, maxRounds: number, seconds: number }} budget
 *   `seconds` boxes the measured rounds: the run stops after `maxRounds`, or once `seconds` have passed
 *   and at least `minRounds` are done.
 * @returns {Promise<Map<string, number[]>>} milliseconds per case
 */
export async function interleaved(cases, { warmupRounds, minRounds, maxRounds, seconds }) {
  for (let round = 0; round < warmupRounds; round++) {
    for (const c of cases) await c.run();
  }
  const samples = new Map(cases.map((c) => [c.id, []]));
  const started = performance.now();
  for (let round = 0; round < maxRounds; round++) {
    if (round >= minRounds && performance.now() - started > seconds * 1000) break;
    for (let i = 0; i < cases.length; i++) {
      const c = cases[(round + i) % cases.length];
      const start = performance.now();
      await c.run();
      samples.get(c.id).push(performance.now() - start);
    }
  }
  return samples;
}

/**
 * Memory of `renders` runs of one case: how far the process RSS rose above its level after a full GC
 * (worker threads count here too), and how much JavaScript heap of this thread stayed reachable after
 * another full GC. Needs `node --expose-gc`; without it returns undefined.
 */
export async function memoryOf(run, renders) {
  const gc = globalThis.gc;
  if (typeof gc !== 'function') return undefined;
  gc();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  for (let i = 0; i < renders; i++) {
    await run();
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }
  gc();
  const after = process.memoryUsage();
  return { rssPeak: peakRss - before.rss, heapRetained: after.heapUsed - before.heapUsed };
}
