import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets a heap grow past what survived its last full collection before it collects again.
 * Left to itself, V8 grows a busy heap to up to four times that: in the soak the main thread's heap
 * swung between 60 and 200 MiB, holding the buffers of documents long answered, and the C allocator
 * kept the room they had taken. At 1.3 times the server stays near 270 MiB instead of 450 MiB on
 * PostgreSQL, with the same flows done for about a tenth more CPU (docs/performance.md, Soak; the
 * measurement in docs/decisions.md). The flag applies to every thread of the process: the main thread,
 * PGlite's and the render threads.
 */
export const HEAP_GROWING_PERCENT = 30;

const FLAG = '--heap-growing-percent';

/** The flag to set, or undefined when the command line sets its own (`node --heap-growing-percent=N`). */
export function heapGrowthFlag(execArgv: readonly string[]): string | undefined {
  return execArgv.some((arg) => arg === FLAG || arg.startsWith(`${FLAG}=`))
    ? undefined
    : `${FLAG}=${HEAP_GROWING_PERCENT}`;
}

/** Before anything is allocated that the setting should govern: the first thing the server does. */
export function limitHeapGrowth(): void {
  const flag = heapGrowthFlag(process.execArgv);
  if (flag) setFlagsFromString(flag);
}
