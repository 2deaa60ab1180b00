import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.mjs';

/**
 * A throwaway PostgreSQL server from Debian's package in a temporary folder, started as the test suite
 * starts one (apps/server/src/test/postgres-global-setup.ts, which is a Vitest global setup and not
 * part of the built server, so it cannot be imported here). Settings as production would have them,
 * apart from fsync: the figures compare the app on both databases, not the disk.
 *
 * @returns {Promise<{ url: string, version: string, createDatabase: (name: string) => string, stop: () => void }
 *   | { unavailable: string }>}
 */
export async function startPostgres() {
  const bin = findPostgresBin();
  if (!bin) return { unavailable: 'no PostgreSQL server binaries under /usr/lib/postgresql' };
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'bench-postgres-'));
  // initdb refuses to run as root: the server runs as the postgres user on a folder it owns.
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const run = (cmd, args) => {
    const full = join(bin, cmd);
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' })
      : spawnSync(full, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${cmd} failed: ${result.stderr || result.stdout}`);
    return result.stdout;
  };
  const data = join(dir, 'data');
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8']);
    const port = await freePort();
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      '-w',
      'start',
    ]);
    const urlOf = (database) => `postgres://postgres@127.0.0.1:${port}/${database}`;
    return {
      url: urlOf('postgres'),
      version: run('postgres', ['--version']).trim(),
      /** A new empty database on this server; its URL. */
      createDatabase(name) {
        run('createdb', ['-h', dir, '-p', String(port), '-U', 'postgres', name]);
        return urlOf(name);
      },
      stop() {
        try {
          run('pg_ctl', ['-D', data, '-m', 'fast', 'stop']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
}

function findPostgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
}
