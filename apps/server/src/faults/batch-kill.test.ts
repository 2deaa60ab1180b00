import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Batch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { DATA_DIR_LOCK, type Db, migrate, openDatabase } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { eventually } from '../test/eventually.js';
import { type ServerProcess, startDemoServer, startTestIssuer, stopServer } from '../test/server-process.js';

const AUDIENCE = 'vertragsgenerator-batch-kill-test';
const DEALS = 120;

/**
 * The server is killed (SIGKILL) while a batch is being made, and started again on the same data: the
 * batch goes on by itself and finishes, and every deal has exactly one document — none lost, none twice.
 */
describe('a server killed in the middle of a batch', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vg-batch-kill-'));
  let idp: Awaited<ReturnType<typeof startTestIssuer>>;
  let server: ServerProcess | undefined;

  const ids = Array.from({ length: DEALS }, (_, i) => `PL-${70001 + i}`);

  beforeAll(async () => {
    idp = await startTestIssuer(AUDIENCE);
    // The first start fills the empty database with the demo; then more deals than the demo has are
    // added while the server is stopped (the embedded database is one process's).
    server = await startDemoServer('batch-kill', idp, { DATA_DIR: dataDir });
    await stopServer(server, 'SIGTERM');
    const { database } = loadConfig({ DATA_DIR: dataDir }, '0');
    const db = await openDatabase(database);
    try {
      await migrate(db);
      await new MatchStore(db).upsertMany(
        ids.map((matchId, i) => ({
          matchId,
          kunde: `Kunde ${i} AG`,
          startdatum: '2027-01-04',
          enddatum: '2027-06-30',
          vk: 120,
          ek: 90,
        })),
      );
    } finally {
      await db.destroy();
      // The data folder is this process's until it exits; the server is the next to own it.
      if (database.kind === 'pglite') rmSync(join(database.dataDir, DATA_DIR_LOCK), { force: true });
    }
    server = await startDemoServer('batch-kill', idp, { DATA_DIR: dataDir });
  }, 120_000);
  afterAll(async () => {
    await stopServer(server, 'SIGTERM');
    await idp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** One token per person, as the app keeps it: the session is the token's. */
  const tokens = new Map<string, string>();
  async function call(method: string, path: string, email: string, body?: unknown) {
    let token = tokens.get(email);
    if (!token) {
      token = await idp.token(email);
      tokens.set(email, token);
    }
    const response = await fetch(`${server?.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, json: await response.json().catch(() => undefined) };
  }
  const signIn = async (email: string) =>
    expect((await call('POST', '/backend/private/saveUser', email, {})).status).toBe(200);

  /**
   * Checks and starts a batch, kills the server once its first deals are done, starts it again and
   * waits until the batch finished by itself; its id.
   */
  async function killedHalfWay(request: Record<string, unknown>): Promise<string> {
    const checked = await call('POST', '/backend/batches', 'legal@demo.local', request);
    expect(checked.status, JSON.stringify(checked.json)).toBe(201);
    const batch = checked.json as Batch;
    expect(batch.counts.ready).toBe(DEALS);
    expect((await call('POST', `/backend/batches/${batch.id}/start`, 'legal@demo.local')).status).toBe(200);
    // Killed once the first deals are done: others are leased, rendering, being stored or sent.
    const before = await eventually('the first deals', async () => {
      const read = (await call('GET', `/backend/batches/${batch.id}`, 'legal@demo.local')).json as Batch;
      return read.counts.done >= 5 ? read : undefined;
    });
    await stopServer(server, 'SIGKILL');
    expect(before.counts.done).toBeLessThan(DEALS);

    server = await startDemoServer('batch-kill', idp, { DATA_DIR: dataDir });
    const after = await eventually(
      'the batch finished after the restart',
      async () => {
        const read = (await call('GET', `/backend/batches/${batch.id}`, 'legal@demo.local')).json as Batch;
        return read.status === 'finished' ? read : undefined;
      },
      { withinMs: 60_000, intervalMs: 200 },
    );
    expect(after.counts).toMatchObject({ done: DEALS, failed: 0, waiting: 0, running: 0 });
    return batch.id;
  }

  /** The database, once the server is stopped (the embedded database is one process's). */
  async function afterStop<T>(read: (db: Db) => Promise<T>): Promise<T> {
    await stopServer(server, 'SIGTERM');
    const { database } = loadConfig({ DATA_DIR: dataDir }, '0');
    const db = await openDatabase(database);
    try {
      await migrate(db);
      return await read(db);
    } finally {
      await db.destroy();
      // The data folder is this process's until it exits; the server is the next to own it.
      if (database.kind === 'pglite') rmSync(join(database.dataDir, DATA_DIR_LOCK), { force: true });
      server = await startDemoServer('batch-kill', idp, { DATA_DIR: dataDir });
    }
  }

  it('goes on after the restart and makes every deal’s document exactly once', async () => {
    await signIn('legal@demo.local');
    const batchId = await killedHalfWay({
      docKey: 'verlaengerung-de-wm-k',
      values: { neuesEnde: '2027-12-31' },
      matchIds: ids.join('\n'),
    });
    await afterStop(async (db) => {
      const perDeal = await db
        .selectFrom('documents')
        .innerJoin('batch_items', 'batch_items.id', 'documents.batch_item_id')
        .select(['batch_items.match_id', 'documents.status', (eb) => eb.fn.countAll<string>().as('n')])
        .where('batch_items.batch_id', '=', batchId)
        .groupBy(['batch_items.match_id', 'documents.status'])
        .execute();
      expect(perDeal).toHaveLength(DEALS);
      expect(perDeal.every((row) => row.status === 'ready' && Number(row.n) === 1)).toBe(true);
      const versions = await db
        .selectFrom('document_versions')
        .innerJoin('batch_items', 'batch_items.document_id', 'document_versions.document_id')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('batch_items.batch_id', '=', batchId)
        .executeTakeFirstOrThrow();
      expect(Number(versions.n)).toBe(DEALS);
    });
  }, 180_000);

  it('sends every deal’s envelope exactly once, with one invitation, across the kill', async () => {
    await signIn('legal@demo.local');
    const csv = [
      'Match-ID;Unterzeichner;Unterzeichner E-Mail',
      ...ids.map((id) => `${id};Kim ${id};kim.${id.toLowerCase()}@kunde.example`),
    ];
    const options = await call(
      'GET',
      '/backend/batches/countersignature?docKey=de-wm-k-rv-1',
      'legal@demo.local',
    );
    const batchId = await killedHalfWay({
      docKey: 'de-wm-k-rv-1',
      values: {},
      file: { name: 'vertraege.csv', content: Buffer.from(csv.join('\n')).toString('base64') },
      send: { countersignatory: (options.json as { options: { id: string }[] }).options[0]?.id, message: '' },
    });
    await afterStop(async (db) => {
      const envelopes = await db
        .selectFrom('envelopes')
        .innerJoin('batch_items', 'batch_items.envelope_id', 'envelopes.id')
        .select(['envelopes.id', 'envelopes.status', 'envelopes.request_key', 'batch_items.id as item'])
        .where('batch_items.batch_id', '=', batchId)
        .execute();
      expect(envelopes).toHaveLength(DEALS);
      expect(envelopes.every((e) => e.status === 'sent' && e.request_key === `batch-${e.item}`)).toBe(true);
      // No deal got a second envelope, even one its record does not point to.
      const all = await db
        .selectFrom('envelopes')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where(
          'request_key',
          'in',
          envelopes.map((e) => `batch-${e.item}`),
        )
        .executeTakeFirstOrThrow();
      expect(Number(all.n)).toBe(DEALS);
      const invitations = await db
        .selectFrom('outgoing_mail')
        .select(['reference', (eb) => eb.fn.countAll<string>().as('n')])
        .where(
          'reference',
          'in',
          envelopes.map((e) => `envelope:${e.id}`),
        )
        .groupBy('reference')
        .execute();
      expect(invitations).toHaveLength(DEALS);
      expect(invitations.every((row) => Number(row.n) === 1)).toBe(true);
    });
  }, 180_000);
});
