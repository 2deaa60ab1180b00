import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Where a worker thread's module is and how to start it: the compiled `.js` beside the compiled caller
 * in production; under Vitest the caller is the TypeScript source, and its worker loads through tsx
 * with the workspace's source condition.
 */
export function siblingWorkerModule(callerUrl: string, baseName: string): URL {
  return new URL(callerUrl.endsWith('.ts') ? `./${baseName}.ts` : `./${baseName}.js`, callerUrl);
}

/**
 * V8 lets a worker's young generation grow to 32 MB or more under load, and each thread keeps what it
 * grew to: with three render threads and the database thread that was about 100 MiB of the server's
 * 540 MiB in the soak. Capped at 8 MB, the threads collect a little more often and the soak stays at
 * about 460 MiB (docs/performance.md, Soak; the rendering and HTTP figures are taken with the cap).
 */
const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 8 };

export function workerStartOptions(module: URL): {
  filename: string;
  execArgv?: string[];
  resourceLimits: typeof WORKER_RESOURCE_LIMITS;
} {
  if (module.pathname.endsWith('.ts')) {
    return {
      filename: module.href,
      execArgv: ['--conditions=source', '--import', 'tsx'],
      resourceLimits: WORKER_RESOURCE_LIMITS,
    };
  }
  return { filename: module.href, resourceLimits: WORKER_RESOURCE_LIMITS };
}

/**
 * Runs the sibling module `baseName` (found as for a worker thread) as a Node process of its own with
 * `args`, for work whose memory should end with it. Resolves with what it wrote; rejects as `execFile`
 * does, with its `stdout` and `stderr` on the error.
 */
export function runSiblingProcess(
  callerUrl: string,
  baseName: string,
  args: string[],
  { maxBuffer }: { maxBuffer?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  const { filename, execArgv = [] } = workerStartOptions(siblingWorkerModule(callerUrl, baseName));
  return execFileAsync(process.execPath, [...execArgv, fileURLToPath(filename), ...args], {
    encoding: 'utf8',
    ...(maxBuffer ? { maxBuffer } : {}),
  });
}
