import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDatabaseTemplates } from './database-templates.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of a throwaway PostgreSQL server, or '' where none can be started. */
    postgresUrl: string;
    /** A migrated PostgreSQL database on that server to copy, or ''. */
    postgresTemplate: string;
    /** A tar file of a migrated PGlite database's files to load. */
    pgliteDump: string;
    /** The same without the schema. */
    pgliteBlankDump: string;
  }
}

/**
 * Starts a throwaway PostgreSQL from Debian's package in a temporary folder, so the database tests run
 * against PGlite and real PostgreSQL alike. Where no server binaries exist, only PGlite runs. Then
 * migrates one database of each kind for the tests to copy (test/databases.ts).
 */
export default async function setup(project: TestProject) {
  const server = process.env.TEST_POSTGRES_URL ? undefined : await startPostgresServer();
  const postgresUrl = process.env.TEST_POSTGRES_URL ?? server?.url ?? '';
  if (!postgresUrl)
    console.warn('PostgreSQL server binaries not found: database tests run against PGlite only.');
  const templates = await createDatabaseTemplates(postgresUrl).catch((error: unknown) => {
    server?.remove();
    throw error;
  });
  project.provide('postgresUrl', postgresUrl);
  project.provide('postgresTemplate', templates.postgresTemplate);
  project.provide('pgliteDump', templates.pgliteDump);
  project.provide('pgliteBlankDump', templates.pgliteBlankDump);
  return async () => {
    await templates.remove();
    server?.remove();
  };
}

/** A PostgreSQL server of its own in a temporary folder, which a test may stop and start again. */
export interface PostgresServer {
  /** Admin URL (user postgres, database postgres). */
  url: string;
  /** `pg_ctl stop -m fast`: open connections are terminated, as when an operator restarts the server. */
  stop(): void;
  /** Starts the stopped server again on the same port and data. */
  start(): void;
  /** Stops the server at once and deletes its folder. */
  remove(): void;
}

/** Undefined where no PostgreSQL server binaries are installed. */
export async function startPostgresServer(): Promise<PostgresServer | undefined> {
  const bin = findPostgresBin();
  if (!bin) return undefined;
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'vg-postgres-'));
  // initdb refuses to run as root: the server runs as the postgres user on a folder it owns.
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const run = (cmd: string, args: string[]) => {
    const full = join(bin, cmd);
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' })
      : spawnSync(full, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
  };
  const port = await freePort();
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`,
      '-w',
      'start',
    ]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    start,
    remove() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch (error) {
        // A test that failed half-way may have left it stopped: the folder goes all the same.
        if (!/not running|No server running/i.test(String(error))) throw error;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
