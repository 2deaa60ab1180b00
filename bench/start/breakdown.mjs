import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { apiRequests, LOAD_USER } from '../lib/api-requests.mjs';
import { MEMORY_PROBE, threadMemory } from '../lib/memory.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { signInDemoAccount } from '../lib/sign-in.mjs';

/** Once healthy the server still finishes what it started (demo seeding, key caches): read after this. */
export const SETTLE_MS = 2000;

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/**
 * Where the resident memory of an idle server goes, and what one document adds: the server started
 * with the memory probe (bench/lib/memory-probe.mjs), read once healthy and again after one DOCX. In
 * the idle reading each thread reports its V8 heap and what it holds outside it (the database thread
 * besides the main one: PGlite's WebAssembly memory); "rest" is VmRSS minus all of them.
 *
 * @returns {Promise<{ idle: Reading, afterDocument: Reading }>}
 * @typedef {{ vmRss: number, threads: { threadId: number, main: boolean, heap: number, external: number }[] }} Reading
 */
export async function memoryBreakdown({ scratch, dataDir, env = {} }) {
  const probeDir = await mkdtemp(join(scratch, 'probe-'));
  const server = await startServerProcess({
    dataDir,
    logFile: join(scratch, 'memory-breakdown.log'),
    env: { ...env, MEMORY_PROBE_DIR: probeDir },
    nodeOptions: ['--import', MEMORY_PROBE],
    timeoutMs: 300_000,
  });
  try {
    await settle();
    const idle = await threadMemory(server, probeDir);
    const token = await signInDemoAccount(server.baseUrl, LOAD_USER);
    const { docx } = await apiRequests(token);
    const response = await fetch(new URL(docx.path, server.baseUrl), {
      method: docx.method,
      headers: docx.headers,
      body: docx.body,
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`the document answered ${response.status}`);
    await settle();
    const afterDocument = await threadMemory(server, probeDir);
    return { idle, afterDocument };
  } finally {
    await server.stop();
    await rm(probeDir, { recursive: true, force: true });
  }
}

/**
 * The rows of the breakdown table, in MiB. The threads of the idle reading report their own figures;
 * render threads cannot (piscina's threads wait for their next task in `Atomics.wait`, where no message
 * reaches them), so what the first document adds is read from VmRSS.
 * @param {{ idle: Reading, afterDocument: Reading }} breakdown
 */
export function breakdownRows({ idle, afterDocument }) {
  const sizeOf = (threads) => threads.reduce((sum, t) => sum + t.heap + t.external, 0);
  const main = idle.threads.filter((t) => t.main);
  const database = idle.threads.filter((t) => !t.main);
  const rows = [['main thread (V8 heap and buffers)', sizeOf(main)]];
  if (database.length > 0)
    rows.push(['database thread (V8 heap and PGlite’s WebAssembly memory)', sizeOf(database)]);
  rows.push(
    ['rest: code, Node.js and V8 themselves, the C allocator', idle.vmRss - sizeOf(idle.threads)],
    ['**VmRSS idle**', idle.vmRss],
    [
      'added by the first document: the render threads start, each with the renderer and its fonts',
      afterDocument.vmRss - idle.vmRss,
    ],
    ['**VmRSS after one document**', afterDocument.vmRss],
  );
  return rows.map(([label, value]) => [label, `${value.toFixed(0)} MiB`]);
}
