import { execFileSync, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port.mjs';
import { importServer, root } from './server.mjs';

/** What `npm start` runs once the build is done. */
export const SERVER_ENTRY = join(root, 'apps/server/dist/main.js');

/** The variables `npm start` sets for the server (package.json), given to every server started here. */
export const START_ENVIRONMENT = Object.fromEntries(
  [
    ...JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start.matchAll(
      /\b([A-Z_]+)=(\S+)/g,
    ),
  ].map(([, name, value]) => [name, value]),
);

let bundleChecked = false;

/**
 * `npm start` builds, and so runs the server from its bundle (apps/server/src/server-bundle.ts). After
 * a build of the modules alone (`tsc -b apps/server`) the bundle is outdated and the server would run
 * the modules: the bundle is made again first, as `npm run build` would.
 */
async function ensureCurrentBundle() {
  if (bundleChecked) return;
  bundleChecked = true;
  const { bundleState } = await importServer('server-bundle.js');
  if (bundleState() === 'current') return;
  console.log('(the server bundle is older than its modules: bundling it again, as npm run build does)');
  execFileSync(process.execPath, [join(root, 'scripts/bundle-server.mjs')], { stdio: 'inherit' });
}

/**
 * Starts the built server as its own process, as `npm start` does after building, on 127.0.0.1 and a
 * free port, and resolves once `GET /backend/health` answers 200. The configuration is the embedded
 * default apart from `env`: variables of the server set in the calling shell are left out, so that
 * a DATABASE_URL there does not quietly change what is measured; those `npm start` sets are set.
 *
 * @param {{ dataDir: string, logFile: string, env?: Record<string, string>, nodeOptions?: string[],
 *   ipc?: boolean, timeoutMs?: number }} options
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, baseUrl: string,
 *   msToHealthy: number, stop: () => Promise<number | null> }>}
 */
export async function startServerProcess({
  dataDir,
  logFile,
  env = {},
  nodeOptions = [],
  ipc = false,
  timeoutMs = 60_000,
}) {
  await ensureCurrentBundle();
  const { CONFIG_VARIABLES } = await importServer('config/config.js');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !CONFIG_VARIABLES.includes(name)),
  );
  const log = openSync(logFile, 'a');
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeOptions, SERVER_ENTRY], {
    cwd: root,
    env: {
      ...inherited,
      ...START_ENVIRONMENT,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', log, log, ...(ipc ? ['ipc'] : [])],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return exited;
    child.kill('SIGTERM');
    const result = await Promise.race([exited, sleep(15_000, 'timeout')]);
    if (result !== 'timeout') return result;
    child.kill('SIGKILL');
    return exited;
  };

  let early;
  exited.then((code) => {
    early = code;
  });
  while (performance.now() - started < timeoutMs) {
    if (early !== undefined)
      throw new Error(`the server exited with ${early} before it was healthy (${logFile})`);
    try {
      const response = await fetch(`${baseUrl}/backend/health`);
      await response.body?.cancel();
      if (response.status === 200) return { child, baseUrl, msToHealthy: performance.now() - started, stop };
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  await stop();
  throw new Error(`the server was not healthy within ${timeoutMs / 1000} s (${logFile})`);
}
