import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { exportJWK, importPKCS8 } from 'jose';
import { CONFIG_VARIABLES, loadConfig } from '../config/config.js';
import { migrate, openDatabase } from '../db/database.js';
import { freePort } from './postgres-global-setup.js';
import { issueToken } from './test-app.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);

/** What a process runs: the build the container image runs, or the sources as the suite runs them. */
export type ServerCode = 'build' | 'sources';

/** Node's arguments for a module of the server (`main`, `cli/restore`) from the build or the sources. */
function entryOf(code: ServerCode, module: string): string[] {
  return code === 'build'
    ? [join(root, `apps/server/dist/${module}.js`)]
    : // No build step: always the code under test.
      ['--conditions=source', '--import', 'tsx', join(root, `apps/server/src/${module}.ts`)];
}
const BUILT_MAIN = entryOf('build', 'main')[0] ?? '';

/** The newest modification time of the files below `dir` that `keep` accepts; 0 for none. */
function newestChange(dir: string, keep: (path: string) => boolean): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && keep(path)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The build where it holds the code under test (CI builds before the tests; so does `npm test`), the
 * sources otherwise. A process from the build is healthy in a few seconds; one from the sources first
 * has tsx compile the whole server, which on a fresh checkout beside three other test files took more
 * than a minute. Test files do not make the build stale: they are not part of it.
 */
function codeUnderTest(): ServerCode {
  const isServerCode = (path: string) =>
    /\.ts$/.test(path) && !/\.test\.ts$/.test(path) && !path.includes('/src/test/');
  const built = newestChange(join(root, 'apps/server/dist'), (path) => path.endsWith('.js'));
  const sources = Math.max(
    newestChange(join(root, 'apps/server/src'), isServerCode),
    newestChange(join(root, 'packages/domain/src'), isServerCode),
  );
  return existsSync(BUILT_MAIN) && built >= sources ? 'build' : 'sources';
}

/** A real server process on a loopback port, its output in `logFile`. */
export interface ServerProcess {
  name: string;
  url: string;
  child: ChildProcess;
  logFile: string;
}

/**
 * Starts `node apps/server/…/main` with exactly the given configuration: a variable the server reads
 * that the calling shell happens to set (DATABASE_URL …) must not leak in.
 */
export function spawnServer(
  name: string,
  code: ServerCode,
  env: Record<string, string> & { PORT: string; DATA_DIR: string },
): ServerProcess {
  if (code === 'build' && !existsSync(BUILT_MAIN)) {
    throw new Error(`${BUILT_MAIN} is missing: build the server first (npm run build).`);
  }
  const logFile = join(env.DATA_DIR, `server-${name}.log`);
  const log = openSync(logFile, 'a');
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([variable]) => !CONFIG_VARIABLES.includes(variable)),
  );
  const child = spawn(process.execPath, entryOf(code, 'main'), {
    cwd: root,
    env: { ...inherited, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', log, log],
  });
  return { name, url: `http://127.0.0.1:${env.PORT}`, child, logFile };
}

/** Polls `/backend/health` until it answers 200; fails with the end of the server's log otherwise. */
export async function waitHealthy(server: ServerProcess, withinMs = 30_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (server.child.exitCode !== null) break;
    const healthy = await fetch(`${server.url}/backend/health`, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.status === 200)
      .catch(() => false);
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const state = server.child.exitCode === null ? `not healthy within ${withinMs} ms` : 'exited';
  const log = readFileSync(server.logFile, 'utf8').slice(-3000);
  throw new Error(`server ${server.name} ${state}; its log ends with:\n${log}`);
}

/** Sends `signal`; a process still running after `withinMs` is killed. */
export async function stopServer(
  server: ServerProcess | undefined,
  signal: NodeJS.Signals = 'SIGTERM',
  withinMs = 15_000,
): Promise<void> {
  const child = server?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, withinMs))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/**
 * An identity provider of the test's own (discovery and keys over HTTP), so a server process checks
 * tokens as it would Google's, and the test signs them without a sign-in page.
 */
export async function startTestIssuer(audience: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test', alg: 'RS256', use: 'sig' };
  const issuer = `http://127.0.0.1:${await freePort()}`;
  const app = Fastify({ logger: false });
  app.get('/.well-known/openid-configuration', async () => ({ issuer, jwks_uri: `${issuer}/jwks` }));
  app.get('/jwks', async () => ({ keys: [jwk] }));
  await app.listen({ host: '127.0.0.1', port: Number(new URL(issuer).port) });
  const key = await importPKCS8(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'RS256');
  return {
    issuer,
    audience,
    token: (email: string) => issueToken({ email, issuer, audience, key }),
    close: () => app.close(),
  };
}

/**
 * A server process with demo data that trusts the test issuer: one render thread, no rate limit to
 * speak of, on its own port and `DATA_DIR` unless `env` names them. Resolves once it is healthy.
 */
export async function startDemoServer(
  name: string,
  issuer: { issuer: string; audience: string },
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const server = spawnServer(name, codeUnderTest(), {
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: mkdtempSync(join(tmpdir(), `vg-${name}-`)),
    DEMO_DATA: 'true',
    OIDC_ISSUER: issuer.issuer,
    OIDC_CLIENT_ID: issuer.audience,
    RENDER_THREADS: '1',
    RATE_LIMIT_PER_MINUTE: '100000',
    LOG_LEVEL: 'warn',
    ...env,
  });
  await waitHealthy(server, 60_000);
  return server;
}

/**
 * A command-line tool as `npm run` starts it (from the build, where it holds the code under test; from
 * the sources otherwise), with nothing of this shell's configuration but `env`.
 */
export async function runCliTool(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([variable]) => !CONFIG_VARIABLES.includes(variable)),
  );
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [...entryOf(codeUnderTest(), `cli/${script}`), ...args],
      {
        cwd: root,
        env: { ...inherited, ...env },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * Every document in a stopped server's embedded database, with the size of its first version (null
 * without one). The database is one process's: read only once the server has stopped.
 */
export async function storedDocuments(
  dataDir: string,
): Promise<{ id: string; status: string; size: number | null }[]> {
  const db = await openDatabase(loadConfig({ DATA_DIR: dataDir }, '0').database);
  try {
    await migrate(db);
    return await db
      .selectFrom('documents')
      .leftJoin('document_versions', (join) =>
        join
          .onRef('document_versions.document_id', '=', 'documents.id')
          .on('document_versions.version', '=', 1),
      )
      .select(['documents.id', 'documents.status', 'document_versions.size'])
      .execute();
  } finally {
    await db.destroy();
  }
}
