import { once } from 'node:events';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOAD_USER } from '../lib/api-requests.mjs';
import { cpuSnapshot, othersShare } from '../lib/machine.mjs';
import { MEMORY_PROBE, residentBytes, threadMemory } from '../lib/memory.mjs';
import { startPostgres } from '../lib/postgres.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { signInDemoAccount } from '../lib/sign-in.mjs';
import { apiClient, FLOWS, flowMatches } from './flows.mjs';
import { MailFolder } from './mail-folder.mjs';
import { report } from './report.mjs';

/**
 * Soak: a working day's mix of the acceptance flows of every page (bench/soak/flows.mjs) against the
 * built server as its own process, on the embedded database and on PostgreSQL: the server's memory
 * once idle after its start, after one round of every flow, through the load, and two minutes after the
 * load stopped.
 *
 * SOAK_MINUTES sets the load's length (30 by default, 1 with --quick).
 */
const FULL = { minutes: 30, sampleSeconds: 5, afterSeconds: 120, endWindowSeconds: 60 };
const QUICK = { minutes: 1, sampleSeconds: 2, afterSeconds: 20, endWindowSeconds: 10 };
/** Flows in flight at once: a team's day compressed, not a stress test. */
const WORKERS = 4;
/** Once healthy the server still finishes what it started (key caches, scheduled checks). */
const SETTLE_MS = 5000;

export default {
  name: 'soak',
  title: 'Soak',

  async run({ quick, machine, log }) {
    const settings = { ...(quick ? QUICK : FULL) };
    if (process.env.SOAK_MINUTES) settings.minutes = Number(process.env.SOAK_MINUTES);
    const scratch = await mkdtemp(join(tmpdir(), 'bench-soak-'));
    const postgres = await startPostgres();
    if (!('url' in postgres)) log(`PostgreSQL is left out: ${postgres.unavailable}`);
    let runs;
    const cpuAtStart = cpuSnapshot();
    try {
      // Both servers at once: what is measured is each one's memory, and the soak takes half the time.
      runs = await Promise.all(
        ['embedded', ...('url' in postgres ? ['postgres'] : [])].map(async (database) => {
          const env = database === 'postgres' ? { DATABASE_URL: postgres.createDatabase('bench_soak') } : {};
          const prefixed = (line) => log(`${database}: ${line}`);
          return {
            database,
            ...(await soakOn({ scratch: join(scratch, database), env, settings, log: prefixed })),
          };
        }),
      );
    } catch (error) {
      // The server's log stays for a look at what went wrong.
      log(`the soak failed; the servers' logs are kept in ${scratch}`);
      throw error;
    } finally {
      if ('stop' in postgres) postgres.stop();
    }
    await rm(scratch, { recursive: true, force: true });
    const othersLoad = othersShare(cpuAtStart, cpuSnapshot());
    return { markdown: report({ runs, settings, workers: WORKERS, machine, othersLoad }) };
  },
};

/**
 * One server: started once to create its database and stopped, started again (the idle reading is
 * of this restart, as after a deployment), each flow run once (the warmed reading), loaded for
 * `settings.minutes`, then left alone.
 */
async function soakOn({ scratch, env, settings, log }) {
  await mkdir(scratch, { recursive: true });
  const dataDir = join(scratch, 'data');
  const probeDir = await mkdtemp(join(tmpdir(), 'bench-soak-probe-'));
  const serverEnv = {
    ...env,
    DEMO_DATA: 'true',
    RATE_LIMIT_PER_MINUTE: '100000',
    MEMORY_PROBE_DIR: probeDir,
  };
  const start = () =>
    startServerProcess({
      dataDir,
      logFile: join(scratch, 'server.log'),
      env: serverEnv,
      nodeOptions: ['--import', MEMORY_PROBE],
      ipc: true,
      // A machine shared with other work can take minutes to create the database.
      timeoutMs: 300_000,
    });
  await (await start()).stop();
  const server = await start();
  try {
    await sleep(SETTLE_MS);
    const idle = { ...(await serverMemory(server)), threads: await threadMemory(server, probeDir) };
    log(`idle after start: VmRSS ${mib(idle.rss)}, main heap used ${mib(idle.heapUsed)}`);

    const counts = { '2xx': 0, errors: 0 };
    const call = apiClient({ baseUrl: server.baseUrl, counts });
    const tokens = {
      legal: await signInDemoAccount(server.baseUrl, LOAD_USER),
      lead: await signInDemoAccount(server.baseUrl, 'leitung@demo.local'),
      admin: await signInDemoAccount(server.baseUrl, 'ops@demo.local'),
    };
    // The workers tell their signing mails apart by each partner's own address; the company's
    // countersignatory would be one mailbox for all of them, so this company sends contracts without.
    await call('PUT', '/backend/admin/countersignature/contract', {
      token: tokens.admin,
      json: { withoutAllowed: true },
    });
    let next = 0;
    const context = {
      call,
      tokens,
      ...(await flowMatches()),
      mail: new MailFolder(join(dataDir, 'mail')),
      sequence: () => ++next,
      serverEnv: { ...env, DATA_DIR: dataDir },
      scratch,
    };

    // One round of every flow before the load, then the reading the load is held against: what a server
    // holds once each page has been used (code compiled, caches and pools filled, the render threads up)
    // is the floor to come back to, not a fresh start's.
    for (const flow of FLOWS) await flow.run(context);
    await sleep(SETTLE_MS);
    const warmed = { ...(await serverMemory(server)), threads: await threadMemory(server, probeDir) };
    log(`after one round of every flow: VmRSS ${mib(warmed.rss)}, main heap used ${mib(warmed.heapUsed)}`);

    const samples = [];
    const started = performance.now();
    const elapsed = () => (performance.now() - started) / 1000;
    const loadSeconds = settings.minutes * 60;
    const flows = Object.fromEntries(FLOWS.map((f) => [f.name, { done: 0, failed: 0, ms: [] }]));
    const failures = [];
    /** Flows in flight by name: each sample records which ran when it was taken. */
    const inFlight = new Map();
    const running = () => [...inFlight].filter(([, n]) => n > 0).map(([name]) => name);
    const worker = async (index) => {
      for (let round = index; elapsed() < loadSeconds; round += WORKERS) {
        for (const flow of FLOWS) {
          if (round % flow.every !== 0 || elapsed() >= loadSeconds) continue;
          const at = performance.now();
          inFlight.set(flow.name, (inFlight.get(flow.name) ?? 0) + 1);
          try {
            await flow.run(context);
            flows[flow.name].done++;
            flows[flow.name].ms.push(performance.now() - at);
          } catch (error) {
            flows[flow.name].failed++;
            if (failures.length < 5) failures.push(`${flow.name}: ${error.message}`);
            if (failures.length <= 5) log(`failed: ${flow.name}: ${error.message}`);
          } finally {
            inFlight.set(flow.name, inFlight.get(flow.name) - 1);
          }
        }
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(index)));
    let loading = true;
    load.finally(() => {
      loading = false;
    });
    let lastLog = 0;
    while (loading) {
      await Promise.race([sleep(settings.sampleSeconds * 1000), load]);
      samples.push({ at: elapsed(), loading, running: running(), ...(await serverMemory(server)) });
      if (elapsed() - lastLog >= 60 || !loading) {
        lastLog = elapsed();
        const done = Object.values(flows).reduce((n, f) => n + f.done, 0);
        log(
          `${elapsed().toFixed(0)} s: ${done} flows, VmRSS ${mib(samples.at(-1).rss)}, ${JSON.stringify(counts)}`,
        );
      }
    }
    await load;
    const endOfLoad = { threads: await threadMemory(server, probeDir) };
    const stoppedAt = elapsed();
    while (elapsed() < stoppedAt + settings.afterSeconds) {
      await sleep(settings.sampleSeconds * 1000);
      samples.push({ at: elapsed(), loading: false, ...(await serverMemory(server)) });
    }
    const after = { ...samples.at(-1), threads: await threadMemory(server, probeDir) };
    log(`${settings.afterSeconds} s after the load: VmRSS ${mib(after.rss)}`);
    return { idle, warmed, samples, endOfLoad, after, stoppedAt, flows, failures, counts };
  } finally {
    await server.stop();
    await rm(probeDir, { recursive: true, force: true });
  }
}

/** VmRSS from the kernel (every thread), and the main thread's `process.memoryUsage()` over IPC. */
async function serverMemory(server) {
  const rss = await residentBytes(server.child.pid);
  let memory = {};
  try {
    const answer = once(server.child, 'message', { signal: AbortSignal.timeout(5000) });
    server.child.send('memory');
    [{ memory }] = await answer;
  } catch {
    // a server too busy to answer within 5 s: this sample has no heap figures
  }
  return {
    rss,
    heapUsed: memory.heapUsed ?? Number.NaN,
    heapTotal: memory.heapTotal ?? Number.NaN,
    external: memory.external ?? Number.NaN,
    arrayBuffers: memory.arrayBuffers ?? Number.NaN,
  };
}

export const mib = (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1024 ** 2).toFixed(0)} MiB` : '–');
