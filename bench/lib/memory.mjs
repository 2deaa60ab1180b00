import { readFile } from 'node:fs/promises';

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
