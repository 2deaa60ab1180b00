import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

const MiB = 1024 * 1024;

/** Preloaded into a measured server (`nodeOptions: ['--import', MEMORY_PROBE]`): see memory-probe.mjs. */
export const MEMORY_PROBE = new URL('./memory-probe.mjs', import.meta.url).href;

/**
 * A process's resident memory in bytes as the kernel counts it (VmRSS: every thread, code and
 * WebAssembly included), from /proc; NaN where there is no /proc.
 */
export async function residentBytes(pid) {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]) * 1024;
  } catch {
    return Number.NaN;
  }
}

/** The process's resident memory (VmRSS) in MiB. */
export const residentMiB = async (pid) => (await residentBytes(pid)) / MiB;

/**
 * VmRSS and each thread's own memory in MiB, from a server started with the memory probe and
 * MEMORY_PROBE_DIR=`probeDir`: its V8 heap and what it holds outside it (the database thread: PGlite's
 * WebAssembly memory). A thread blocked in Atomics.wait (an idle piscina render thread) does not answer.
 *
 * @returns {Promise<{ vmRss: number, threads: { threadId: number, main: boolean, heap: number, external: number }[] }>}
 */
export async function threadMemory(server, probeDir) {
  for (const file of await readdir(probeDir)) await rm(join(probeDir, file));
  const vmRss = await residentMiB(server.child.pid);
  server.child.kill('SIGUSR2');
  // Each thread answers on its own event loop; an idle one within milliseconds.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const threads = await Promise.all(
    (await readdir(probeDir)).map(async (file) => {
      const { threadId, main, heapBytes, externalBytes } = JSON.parse(
        await readFile(join(probeDir, file), 'utf8'),
      );
      return { threadId, main, heap: heapBytes / MiB, external: externalBytes / MiB };
    }),
  );
  return { vmRss, threads };
}
