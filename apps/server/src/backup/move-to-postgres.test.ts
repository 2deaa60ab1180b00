import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { createPostgresDatabase } from '../test/databases.js';
import { demoDataList, demoMatch as match } from '../test/demo-order.js';
import { eventually } from '../test/eventually.js';
import { confirmSigningCodeByMail, signingLinkInMailFolder } from '../test/mail-folder.js';
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

    type Recipient = { role: string; name: string; email: string; routingOrder: number };
    /**
     * The envelope sent with the company's first signatory countersigning (a contract needs one on a
     * new database), and each signer signing in turn through the link in the mail folder.
     */
    const sendAndSign = async (id: string, token: string): Promise<string> => {
      const draft = (await (
        await call(embedded, 'GET', `/backend/signature/envelopes/${id}`, token)
      ).json()) as {
        subject: string;
        recipients: Recipient[];
        countersignature: { options: { id: string }[] };
      };
      const recipients = draft.recipients.map(({ role, name, email, routingOrder }) => ({
        role,
        name,
        email,
        routingOrder,
      }));
      const since = Date.now();
      const sent = await call(embedded, 'POST', `/backend/signature/envelopes/${id}/send`, token, {
        subject: draft.subject,
        message: '',
        recipients,
        countersignatory: draft.countersignature.options[0]?.id,
      });
      expect(sent.status).toBe(200);
      for (const recipient of ((await sent.json()) as { recipients: Recipient[] }).recipients) {
        const link = await eventually(
          `the signing link mailed to ${recipient.email}`,
          () => signingLinkInMailFolder(join(dataDir, 'mail'), recipient.email, since),
          { intervalMs: 50 },
        );
        await confirmSigningCodeByMail(
          { url: embedded.url, mailDir: join(dataDir, 'mail') },
          { token: link.split('#')[1] ?? '', to: recipient.email },
        );
        const signature = await fetch(`${embedded.url}/backend/signing/sign`, {
          method: 'POST',
          headers: { 'x-signing-token': link.split('#')[1] ?? '', 'content-type': 'application/json' },
          body: JSON.stringify({ consent: true, typedName: recipient.name }),
          signal: AbortSignal.timeout(30_000),
        });
        expect(signature.status).toBe(200);
      }
      return id;
    };

    // Colleagues at work: documents made, envelopes created, sent and signed, one after the other,
    // until the backup is done.
    let working = true;
    const made: string[] = [];
    const signed: string[] = [];
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
        const id = ((await envelope.json()) as { data: string }).data.split('/').pop() as string;
        signed.push(await sendAndSign(id, consultant));
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
    expect(signed.length).toBeGreaterThanOrEqual(2);

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
      // Signing ran during the backup: every completed envelope has its completion event, or the
      // snapshot would have cut a completion in two.
      const halfSigned = await sql<{ count: string }>`
        select count(*) as count from envelopes e
        where e.status = 'completed' and not exists (
          select 1 from envelope_events v where v.envelope_id = e.id and v.type = 'completed')`.execute(db);
      expect(Number(halfSigned.rows[0]?.count)).toBe(0);

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
      // An envelope signed on the embedded database is completed on both replicas.
      for (const replica of [a, b]) {
        const envelope = await call(replica, 'GET', `/backend/signature/envelopes/${signed[0]}`, consultant);
        expect(envelope.status, replica.name).toBe(200);
        expect(((await envelope.json()) as { status: string }).status).toBe('completed');
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
