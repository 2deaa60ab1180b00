import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  runCliTool,
  type ServerProcess,
  startDemoServer,
  startTestIssuer,
  stopServer,
} from '../test/server-process.js';
import { commandSocketPath } from './command-socket.js';

const AUDIENCE = 'vertragsgenerator-cli-test';

/**
 * `npm run users` and `npm run matches:import` while the server runs on the embedded database: the
 * tools hand their work to the server, which sees the change with the very next request; with the
 * server stopped they open the database themselves, as before.
 */
describe('the command-line tools beside a running embedded server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vg-cli-beside-'));
  let idp: Awaited<ReturnType<typeof startTestIssuer>>;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    idp = await startTestIssuer(AUDIENCE);
    server = await startDemoServer('cli', idp, { DATA_DIR: dataDir });
  }, 90_000);
  afterAll(async () => {
    await stopServer(server, 'SIGTERM');
    await idp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  type Script = 'users' | 'matches-import' | 'backup' | 'restore';
  const tool = (script: Script, ...args: string[]) => toolIn(dataDir, script, ...args);

  /** A tool as `npm run` starts it, on the embedded database in `folder`. */
  const toolIn = (folder: string, script: Script, ...args: string[]) =>
    runCliTool(script, args, { DATA_DIR: folder });

  async function call(path: string, email: string, init: RequestInit = {}) {
    const token = await idp.token(email);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    await fetch(`${server?.url}/backend/private/saveUser`, { method: 'POST', headers, body: '{}' });
    return fetch(`${server?.url}${path}`, { ...init, headers });
  }

  it('serves the tools on a socket only its own user can open', () => {
    const socket = commandSocketPath(dataDir);
    expect(existsSync(socket)).toBe(true);
    expect(statSync(join(socket, '..')).mode & 0o777).toBe(0o700);
  });

  it('changes a level at once: the next request of that user has it', async () => {
    const before = await call('/backend/private/verifyUser', 'legal@demo.local', {
      method: 'POST',
      body: '{}',
    });
    expect(((await before.json()) as { permission: number }).permission).toBe(2);

    const changed = await tool('users', 'set', 'legal@demo.local', 'consultant');
    expect(changed).toMatchObject({ code: 0, stdout: 'legal@demo.local: consultant\n' });

    const after = await call('/backend/private/verifyUser', 'legal@demo.local', {
      method: 'POST',
      body: '{}',
    });
    expect(((await after.json()) as { permission: number }).permission).toBe(1);
    expect((await tool('users', 'list')).stdout).toMatch(/legal@demo\.local\s+consultant/);
  }, 60_000);

  it('grants the administrator capability and reports refusals with exit code 1', async () => {
    expect((await tool('users', 'admin', 'berater@demo.local', 'grant')).code).toBe(0);
    const staff = await call('/backend/admin/staff?search=berater', 'berater@demo.local');
    expect(staff.status).toBe(200);

    const unknown = await tool('users', 'admin', 'niemand@demo.local', 'grant');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Unbekannte E-Mail-Adresse/);
  }, 60_000);

  it('imports a match file the server answers at once, with an audit entry', async () => {
    const file = join(dataDir, 'crm-export.csv');
    writeFileSync(file, 'matchId;kunde\nPL-77001;Elbwerk Logistik AG\n');
    const imported = await tool('matches-import', file);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/1 Matches importiert \(1 neu/);

    const match = await call('/backend/match/PL-77001', 'berater@demo.local', { method: 'POST', body: '{}' });
    expect(match.status).toBe(200);
    const audit = await call('/backend/admin/audit', 'ops@demo.local');
    const { entries } = (await audit.json()) as { entries: { actor: string; action: string }[] };
    expect(entries.slice(0, 3).map((e) => e.action)).toEqual([
      'matches.import',
      'administrator.grant',
      'permission.set',
    ]);
    expect(entries[0]?.actor).toMatch(/^cli:/);

    const missing = await tool('matches-import', join(dataDir, 'fehlt.csv'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/fehlt\.csv kann nicht gelesen werden/);
  }, 60_000);

  it('writes a backup while serving, which restores into a fresh folder but not over a used one', async () => {
    const backup = join(tmpdir(), `vg-cli-backup-${process.pid}.backup`);
    const written = await tool('backup', backup);
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    expect(written.stdout).toMatch(/^Sicherung geschrieben: .* \d+ Zeilen in \d+ Tabellen/);
    // The server wrote it and goes on serving.
    expect(
      (await call('/backend/match/PL-77001', 'berater@demo.local', { method: 'POST', body: '{}' })).status,
    ).toBe(200);

    const inUse = await tool('restore', backup);
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toMatch(/in use by process \d+/);

    const fresh = mkdtempSync(join(tmpdir(), 'vg-cli-restored-'));
    try {
      const restored = await toolIn(fresh, 'restore', backup);
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(/^Wiederhergestellt in /);
      const listed = await toolIn(fresh, 'users', 'list');
      expect(listed.stdout).toMatch(/berater@demo\.local\s+consultant\s+admin/);
      const again = await toolIn(fresh, 'restore', backup);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/nicht leer/);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
      rmSync(backup, { force: true });
    }
  }, 90_000);

  it('opens the database itself once the server is stopped', async () => {
    await stopServer(server, 'SIGTERM');
    expect(existsSync(commandSocketPath(dataDir))).toBe(false);
    const listed = await tool('users', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/berater@demo\.local\s+consultant\s+admin/);
  }, 60_000);
});
