import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/** Writes raw bytes to the listening server and reads everything it answers until it closes. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parse(answer: string): { status: number; body: { error: string; message: string } } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
}

/**
 * What Node's HTTP parser refuses never reaches a route: the answer still has the API's shape and a
 * German message, as every other refusal does.
 */
describe('requests the HTTP parser refuses', () => {
  let db: Db;
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
    t = await createTestApp(db);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  it('answers malformed HTTP with 400 in German', async () => {
    const { status, body } = parse(await rawExchange(port, 'KAPUTT / HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'bad_request', message: 'Die Anfrage ist kein gültiges HTTP.' });
  });

  it('answers headers beyond Node’s 16 kB with 431 in German', async () => {
    const huge = `GET /backend/health HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`;
    const { status, body } = parse(await rawExchange(port, huge));
    expect(status).toBe(431);
    expect(body.error).toBe('headers_too_large');
    expect(body.message).toMatch(/Kopfzeilen/);
  });

  it('still answers a well-formed request on the same server', async () => {
    const answer = await rawExchange(
      port,
      'GET /backend/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(answer.startsWith('HTTP/1.1 200')).toBe(true);
  });
});
