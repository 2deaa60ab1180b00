import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDataList, demoMatch as match } from '../test/demo-order.js';
import {
  type ServerProcess,
  startDemoServer,
  startTestIssuer,
  stopServer,
  storedDocuments,
} from '../test/server-process.js';

const docxKey = 'docx-de-wm-rv';
const dataList = demoDataList(docxKey);
const AUDIENCE = 'vertragsgenerator-restart-test';

/**
 * The server process dies (SIGKILL: a crash, an OOM kill, a pulled plug) while documents are being
 * generated. Every request either completed, and its document is stored and readable after the
 * restart, or failed at the client with a connection error; no document is half stored; and the same
 * request succeeds once the server is back on the same data.
 */
describe('a server restart during generation', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vg-restart-'));
  let idp: Awaited<ReturnType<typeof startTestIssuer>>;
  let server: ServerProcess | undefined;
  let baseUrl = '';

  async function startServer(): Promise<void> {
    server = await startDemoServer('restart', idp, { DATA_DIR: dataDir });
    baseUrl = server.url;
  }

  beforeAll(async () => {
    idp = await startTestIssuer(AUDIENCE);
    await startServer();
  }, 90_000);
  afterAll(async () => {
    await stopServer(server, 'SIGTERM');
    await idp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function generate(token: string) {
    const response = await fetch(`${baseUrl}/backend/generateDocx/${docxKey}/${match.matchId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dataList }),
      signal: AbortSignal.timeout(30_000),
    });
    return {
      status: response.status,
      id: response.headers.get('x-document-id'),
      body: await response.arrayBuffer(),
    };
  }

  async function signIn(): Promise<string> {
    const token = await idp.token('legal@demo.local');
    const response = await fetch(`${baseUrl}/backend/private/saveUser`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(200);
    return token;
  }

  it('loses no completed document, stores none half, and serves the retried request', async () => {
    const token = await signIn();
    const inFlight = Array.from({ length: 12 }, () => generate(token));
    // Killed once the first document is out: the others are queued, rendering or being stored.
    await Promise.race(inFlight);
    await stopServer(server, 'SIGKILL');
    const outcomes = await Promise.allSettled(inFlight);

    const completed: string[] = [];
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') {
        expect(outcome.value.status).toBe(200);
        expect(outcome.value.id).toMatch(/^[0-9a-f-]{36}$/);
        completed.push(outcome.value.id ?? '');
      } else {
        // fetch's network failure: the connection closed without an answer.
        expect(outcome.reason).toBeInstanceOf(TypeError);
      }
    }
    expect(completed.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status === 'rejected').length).toBeGreaterThan(0);

    await startServer();
    // Signing keys and sessions live in the database: the token is still good after the restart.
    for (const id of completed) {
      const file = await fetch(`${baseUrl}/backend/documents/${id}/file`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(file.status, id).toBe(200);
      expect(new Uint8Array(await file.arrayBuffer()).subarray(0, 2)).toEqual(new Uint8Array([0x50, 0x4b])); // a ZIP: the DOCX
    }
    const retried = await generate(token);
    expect(retried.status).toBe(200);

    // The embedded database is one process's: look inside once the server has stopped.
    await stopServer(server, 'SIGTERM');
    const documents = await storedDocuments(dataDir);
    for (const document of documents) {
      // Ready means a first version with content; anything else has none.
      if (document.status === 'ready') expect(document.size, document.id).toBeGreaterThan(0);
      else expect(document.size, document.id).toBeNull();
    }
    const ready = documents.filter((d) => d.status === 'ready').map((d) => d.id);
    expect(ready).toEqual(expect.arrayContaining([...completed, retried.id]));
    // Every request that reached the server before the kill is on record with what was submitted.
    expect(documents.length).toBeGreaterThanOrEqual(completed.length + 1);
  }, 120_000);
});
