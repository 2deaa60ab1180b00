import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
const AUDIENCE = 'vertragsgenerator-stop-test';

/**
 * The orchestrator stops the server (SIGTERM: a deploy, a scale-down) while documents are being
 * generated. Every request the server accepted is answered, the documents it answered are stored whole,
 * none is left rendering, and the process exits 0 without being killed.
 */
describe('a SIGTERM during generation', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vg-stop-'));
  let idp: Awaited<ReturnType<typeof startTestIssuer>>;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    idp = await startTestIssuer(AUDIENCE);
    // One render thread: the documents queue behind each other, so many are in flight at the signal.
    server = await startDemoServer('stop', idp, { DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  }, 90_000);
  afterAll(async () => {
    // Only if the test failed before the process ended.
    await stopServer(server, 'SIGKILL');
    await idp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every accepted request, stores nothing half, and exits 0', async () => {
    const url = server?.url ?? '';
    const child = server?.child;
    if (!child) throw new Error('no server');
    const token = await idp.token('legal@demo.local');
    const signIn = await fetch(`${url}/backend/private/saveUser`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(signIn.status).toBe(200);

    let signalledAt = Number.POSITIVE_INFINITY;
    const generate = async () => {
      const response = await fetch(`${url}/backend/generateDocx/${docxKey}/${match.matchId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ dataList }),
        signal: AbortSignal.timeout(30_000),
      });
      await response.arrayBuffer();
      return { status: response.status, id: response.headers.get('x-document-id'), at: Date.now() };
    };
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const inFlight = Array.from({ length: 40 }, generate);
    // Signalled once the first document is out: the others are queued, rendering or being stored.
    await Promise.race(inFlight);
    child.kill('SIGTERM');
    signalledAt = Date.now();
    const outcomes = await Promise.allSettled(inFlight);

    // Every request was sent before the signal: each gets its answer, none a dropped connection.
    const answered = outcomes.map((outcome) => {
      if (outcome.status === 'rejected') throw new Error(`a request lost its connection: ${outcome.reason}`);
      return outcome.value;
    });
    for (const answer of answered) expect([200, 503]).toContain(answer.status);
    const completed = answered.filter((answer) => answer.status === 200);
    // The stop waited for documents still in the render queue when it began.
    expect(completed.filter((answer) => answer.at > signalledAt).length).toBeGreaterThan(0);

    // No new connection is taken once the server stops.
    await expect(generate()).rejects.toThrow();
    expect(await exited).toBe(0);
    const log = readFileSync(server?.logFile ?? '', 'utf8');
    expect(log).toContain('shutting down');
    expect(log).toContain('"msg":"stopped"');

    const documents = await storedDocuments(dataDir);
    // Nothing half stored: no document left rendering, every ready one has its file.
    expect(documents.filter((document) => document.status === 'rendering')).toEqual([]);
    for (const document of documents) {
      if (document.status === 'ready') expect(document.size, document.id).toBeGreaterThan(0);
    }
    const ready = new Set(documents.filter((d) => d.status === 'ready').map((d) => d.id));
    for (const answer of completed) expect(ready.has(answer.id ?? ''), answer.id ?? '').toBe(true);
  }, 120_000);
});
