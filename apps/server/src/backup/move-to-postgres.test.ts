import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CONFIG_VARIABLES } from '../config.js';
import { openDatabase } from '../db/database.js';
import { demoDataList, demoMatch as match } from '../test/demo-order.js';
import { freePort } from '../test/postgres-global-setup.js';
import {
  type ServerProcess,
  spawnServer,
  startTestIssuer,
  stopServer,
  waitHealthy,
} from '../test/server-process.js';
import { readBackup } from './backup-file.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const postgresUrl = inject('postgresUrl');
const AUDIENCE = 'vertragsgenerator-move-test';

/** `npm run backup` / `npm run restore` as a process, with nothing of this shell's configuration but `env`. */
async function tool(script: 'backup' | 'restore', file: string, env: Record<string, string>) {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([variable]) => !CONFIG_VARIABLES.includes(variable)),
  );
  const entry = join(root, `apps/server/src/cli/${script}.ts`);
  return run(process.execPath, ['--conditions=source', '--import', 'tsx', entry, file], {
    cwd: root,
    env: { ...inherited, ...env },
  });
}

/**
 * The move of docs/operations.md: a team on the embedded database backs up while its colleagues keep
 * generating documents and creating envelopes, restores the backup into PostgreSQL, and starts two
 * replicas there. Every document still matches its SHA-256, every envelope has its events, and what
 * was made on the embedded database is served by both replicas with the sessions of before.
 */
describe.skipIf(!postgresUrl)('the move from the embedded database to PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vg-move-'));
  const backup = join(dataDir, 'umzug.backup');
  let idp: Awaited<ReturnType<typeof startTestIssuer>>;
  const servers: ServerProcess[] = [];
  let databaseUrl = '';

  async function start(name: string, env: Record<string, string>): Promise<ServerProcess> {
    const port = await freePort();
    const server = spawnServer(name, 'sources', {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: mkdtempSync(join(tmpdir(), `vg-move-${name}-`)),
      DEMO_DATA: 'true',
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: AUDIENCE,
      RENDER_THREADS: '1',
      RATE_LIMIT_PER_MINUTE: '100000',
      LOG_LEVEL: 'warn',
      ...env,
    });
    servers.push(server);
    await waitHealthy(server, 60_000);
    return server;
  }

  beforeAll(async () => {
    idp = await startTestIssuer(AUDIENCE);
    const admin = await openDatabase({ kind: 'postgres', url: postgresUrl, poolSize: 1 });
    const name = `vg_move_${randomBytes(6).toString('hex')}`;
    try {
      await sql`create database ${sql.id(name)}`.execute(admin);
    } finally {
      await admin.destroy();
    }
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await stopServer(server, 'SIGKILL');
    await idp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('backs up under load, restores into PostgreSQL, and two replicas serve every document and envelope', async () => {
    const embedded = await start('embedded', { DATA_DIR: dataDir });
    const call = (
      server: ServerProcess,
      method: 'GET' | 'POST',
      path: string,
      token: string,
      body?: unknown,
    ) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    const legal = await idp.token('legal@demo.local');
    const consultant = await idp.token('berater@demo.local');
    for (const token of [legal, consultant]) {
      expect((await call(embedded, 'POST', '/backend/private/saveUser', token, {})).status).toBe(200);
    }

    // Colleagues at work: documents and envelopes, one after the other, until the backup is done.
    let working = true;
    const made: string[] = [];
    const work = (async () => {
      while (working) {
        const document = await call(
          embedded,
          'POST',
          `/backend/generateDocx/docx-de-wm-rv/${match.matchId}`,
          legal,
          {
            dataList: demoDataList('docx-de-wm-rv'),
          },
        );
        expect(document.status).toBe(200);
        made.push(document.headers.get('x-document-id') ?? '');
        await document.arrayBuffer();
        const envelope = await call(
          embedded,
          'POST',
          `/backend/generateDocusign/de-wm-pp-rv/${match.matchId}`,
          consultant,
          {
            dataList: demoDataList('de-wm-pp-rv'),
          },
        );
        expect(envelope.status).toBe(200);
        await envelope.arrayBuffer();
      }
    })();
    // Some work before, during and after the backup.
    while (made.length < 3) await new Promise((resolve) => setTimeout(resolve, 50));
    const written = await tool('backup', backup, { DATA_DIR: dataDir });
    expect(written.stdout).toMatch(/^Sicherung geschrieben/);
    const madeBeforeBackupEnded = made.length;
    while (made.length < madeBeforeBackupEnded + 2) await new Promise((resolve) => setTimeout(resolve, 50));
    working = false;
    await work;
    await stopServer(embedded, 'SIGTERM');

    const { rows } = await readBackup(backup);
    expect(rows.documents).toBeGreaterThanOrEqual(3);
    expect(rows.envelopes).toBeGreaterThanOrEqual(1);

    const restored = await tool('restore', backup, { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    expect(restored.stdout).toMatch(/^Wiederhergestellt in PostgreSQL/);

    const [a, b] = [
      await start('replica-a', { DATABASE_URL: databaseUrl }),
      await start('replica-b', { DATABASE_URL: databaseUrl }),
    ];
    const db = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 1 });
    try {
      // Exactly the backup's rows, and every file still has the SHA-256 recorded with it.
      const counted = await sql<{ documents: string; envelopes: string }>`
        select (select count(*) from documents) as documents, (select count(*) from envelopes) as envelopes`.execute(
        db,
      );
      expect(Number(counted.rows[0]?.documents)).toBe(rows.documents);
      expect(Number(counted.rows[0]?.envelopes)).toBe(rows.envelopes);
      const mismatched = await sql<{ count: string }>`
        select count(*) as count from document_versions where encode(sha256(content), 'hex') <> sha256`.execute(
        db,
      );
      expect(Number(mismatched.rows[0]?.count)).toBe(0);
      const withoutEvents = await sql<{ count: string }>`
        select count(*) as count from envelopes e
        where not exists (select 1 from envelope_events v where v.envelope_id = e.id)`.execute(db);
      expect(Number(withoutEvents.rows[0]?.count)).toBe(0);

      // A document of the embedded days, from both replicas, with the session opened back then.
      const old = made[0] ?? '';
      for (const replica of [a, b]) {
        const file = await call(replica, 'GET', `/backend/documents/${old}/file`, legal);
        expect(file.status, replica.name).toBe(200);
        expect(
          Buffer.from(await file.arrayBuffer())
            .subarray(0, 2)
            .toString(),
        ).toBe('PK');
      }
      // And new work continues on PostgreSQL.
      const next = await call(b, 'POST', `/backend/generateDocx/docx-de-wm-rv/${match.matchId}`, legal, {
        dataList: demoDataList('docx-de-wm-rv'),
      });
      expect(next.status).toBe(200);
    } finally {
      await db.destroy();
    }
  }, 180_000);
});
