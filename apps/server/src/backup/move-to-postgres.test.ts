import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { createPostgresDatabase } from '../test/databases.js';
import { demoDataList, demoMatch as match } from '../test/demo-order.js';
import {
  runCliTool,
  type ServerProcess,
  startDemoServer,
  startTestIssuer,
  stopServer,
} from '../test/server-process.js';
import { readBackup } from './backup-file.js';

const postgresUrl = inject('postgresUrl');
const AUDIENCE = 'vertragsgenerator-move-test';

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
    const server = await startDemoServer(name, idp, env);
    servers.push(server);
    return server;
  }

  beforeAll(async () => {
    idp = await startTestIssuer(AUDIENCE);
    databaseUrl = await createPostgresDatabase(postgresUrl, 'vg_move');
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
    const written = await runCliTool('backup', [backup], { DATA_DIR: dataDir });
    expect(written.stdout).toMatch(/^Sicherung geschrieben/);
    const madeBeforeBackupEnded = made.length;
    while (made.length < madeBeforeBackupEnded + 2) await new Promise((resolve) => setTimeout(resolve, 50));
    working = false;
    await work;
    await stopServer(embedded, 'SIGTERM');

    const { rows } = await readBackup(backup);
    expect(rows.documents).toBeGreaterThanOrEqual(3);
    expect(rows.envelopes).toBeGreaterThanOrEqual(1);

    const restored = await runCliTool('restore', [backup], { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    expect(restored.stderr).toBe('');
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
