import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../admin/audit-log.js';
import type { Db } from '../../db/database.js';
import { crmEnvelope, crmEventSink } from '../../test/crm-writeback-fixture.js';
import { testDatabases } from '../../test/databases.js';
import { CrmWritebackOutbox } from './crm-writeback-outbox.js';
import { CrmWritebacks } from './crm-writebacks.js';
import { CrmWritebackRefused } from './crm-writer.js';
import { HttpWriteback } from './http-writeback.js';

const PDF = Buffer.from('%PDF-1.7\n% versiegelt\n%%EOF\n');
const quiet = { warn: () => {}, error: () => {} };
const seconds = (from: Date, s: number) => new Date(from.getTime() + s * 1000);

/** A CRM's receiving end: keeps each request and answers with the next status of `answers` (default 204). */
async function startReceiver() {
  const received: { method: string; path: string; authorization: string | undefined; body: unknown }[] = [];
  const answers: number[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = answers.shift() ?? 204;
      if (status < 300)
        received.push({
          method: request.method ?? '',
          path: request.url ?? '',
          authorization: request.headers.authorization,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(status < 300 ? '' : JSON.stringify({ error: status === 403 ? 'forbidden' : 'down' }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    received,
    answers,
    url,
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe.each(testDatabases())('HTTP CRM write-back on $name', (database) => {
  let db: Db;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const outbox = () =>
    new CrmWritebackOutbox({
      db,
      writer: new HttpWriteback({
        url: `${receiver.url}/deals/{matchId}/vertragsstatus`,
        method: 'PUT',
        auth: { kind: 'bearer', token: 'crm-token' },
        timeoutMs: 2_000,
        publicUrl: 'https://vertrag.example',
      }),
      log: quiet,
    });

  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(async () => {
    await db.destroy();
  });
  beforeEach(async () => {
    await db.deleteFrom('webhook_events').execute();
    await db.deleteFrom('envelopes').execute();
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('sends each status change with its time, and on completion the sealed PDF’s address and SHA-256', async () => {
    const envelope = await crmEnvelope(db, crmEventSink());
    await envelope.send();
    await envelope.complete(PDF);
    expect(await outbox().deliverDue()).toBe(2);
    expect(receiver.received).toEqual([
      {
        method: 'PUT',
        path: '/deals/PL-4711/vertragsstatus',
        authorization: 'Bearer crm-token',
        body: {
          writebackId: expect.stringMatching(/^crm_\d+$/),
          event: 'envelope.sent',
          matchId: 'PL-4711',
          envelopeId: envelope.id,
          status: 'Versendet',
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          sealedPdf: null,
        },
      },
      {
        method: 'PUT',
        path: '/deals/PL-4711/vertragsstatus',
        authorization: 'Bearer crm-token',
        body: expect.objectContaining({
          event: 'envelope.completed',
          status: 'Unterschrieben',
          sealedPdf: {
            sha256: createHash('sha256').update(PDF).digest('hex'),
            url: `https://vertrag.example/backend/crm/envelopes/${envelope.id}/sealed-pdf`,
            // The CRM has no webhook endpoint's secret: the write-back carries a token of its own.
            headers: { 'x-sealed-pdf-token': expect.stringMatching(/^vgpdf_/) },
            expiresAt: expect.any(String),
          },
        }),
      },
    ]);
    expect(await envelope.crmHistory()).toEqual([
      { type: 'crm_filed', detail: 'Status „Unterschrieben“ an das CRM gemeldet.' },
    ]);
  });

  it('tells the CRM of status changes only: a second signature leaves it at „Teilweise unterschrieben“', async () => {
    const envelope = await crmEnvelope(db, crmEventSink());
    await envelope.send();
    await envelope.sign();
    await envelope.sign();
    await envelope.complete(PDF);
    // Four write-backs were due; the second signature's has nothing new to tell and is done unsent.
    expect(await outbox().deliverDue()).toBe(3);
    const deliveries = await db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('target', '=', 'crm')
      .execute();
    expect(deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(receiver.received.map((r) => (r.body as { status: string }).status)).toEqual([
      'Versendet',
      'Teilweise unterschrieben',
      'Unterschrieben',
    ]);
  });

  it('retries a CRM that answers 500 and delivers once; the history tells why not yet, then that it arrived', async () => {
    const envelope = await crmEnvelope(db, crmEventSink());
    await envelope.send();
    receiver.answers.push(500);
    // A second ahead: the database stamps a due delivery in microseconds and this clock counts
    // milliseconds, so a delivery made in the same millisecond would not be due yet.
    const start = seconds(new Date(), 1);
    expect(await outbox().deliverDue(start)).toBe(0);
    expect(await outbox().deliverDue(seconds(start, 31))).toBe(1);
    expect(await outbox().deliverDue(seconds(start, 7200))).toBe(0);
    expect(receiver.received.map((r) => (r.body as { status: string }).status)).toEqual(['Versendet']);
    expect(await envelope.crmHistory()).toEqual([
      {
        type: 'crm_pending',
        detail: expect.stringMatching(
          /^Status „Versendet“: Das CRM ist nicht erreichbar .*antwortete 500.* Wird erneut versucht\.$/,
        ),
      },
      { type: 'crm_filed', detail: 'Status „Versendet“ an das CRM gemeldet.' },
    ]);
  });

  it('gives up at once when the CRM refuses the permission, and still tells it of later changes', async () => {
    const envelope = await crmEnvelope(db, crmEventSink());
    await envelope.send();
    receiver.answers.push(403);
    expect(await outbox().deliverDue()).toBe(0);
    expect(await envelope.crmHistory()).toEqual([
      {
        type: 'crm_refused',
        detail: expect.stringMatching(
          /^Status „Versendet“: Das CRM verweigert die Berechtigung \(PUT .* antwortete 403/,
        ),
      },
    ]);
    await envelope.complete(PDF);
    expect(await outbox().deliverDue()).toBe(1);
    expect(receiver.received.map((r) => (r.body as { status: string }).status)).toEqual(['Unterschrieben']);
  });
  it('writes nothing for an envelope deleted before its write-back, and holds nothing back', async () => {
    const envelope = await crmEnvelope(db, crmEventSink());
    await envelope.send();
    await db.deleteFrom('envelopes').where('id', '=', envelope.id).execute();
    expect(await outbox().deliverDue()).toBe(0);
    expect(receiver.received).toEqual([]);
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('target', '=', 'crm')
      .execute();
    expect(rows).toEqual([{ status: 'delivered' }]);
  });

  it('keeps „Erneut senden“ made while an attempt still waited for the CRM: that attempt records only its answer', async () => {
    const envelope = await crmEnvelope(db, crmEventSink());
    await envelope.send();
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let writing!: () => void;
    const written = new Promise<void>((resolve) => {
      writing = resolve;
    });
    let calls = 0;
    const slow = new CrmWritebackOutbox({
      db,
      writer: {
        // The first attempt waits for the CRM and is refused; the one the resend asked for arrives.
        write: async () => {
          calls++;
          if (calls > 1) return 'Status „Versendet“ an das CRM gemeldet';
          writing();
          await answered;
          throw new CrmWritebackRefused('Das CRM kennt den Deal nicht.');
        },
      },
      log: quiet,
    });
    const run = slow.deliverDue();
    await written;
    // Meanwhile another attempt (after this one's lease ran out) gave up, and an administrator sent it again.
    const { id } = await db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed' })
      .where('target', '=', 'crm')
      .returning('id')
      .executeTakeFirstOrThrow();
    await new CrmWritebacks(db, new AuditLog(db)).resend('ops@demo.local', id);
    answer();
    expect(await run).toBe(1);
    expect(calls).toBe(2);
    const delivery = await db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(delivery).toEqual({ status: 'delivered', attempts: 1 });
    // The refusal stays among the attempts, but gave nothing up and put nothing in the history.
    const attempts = await db
      .selectFrom('webhook_attempts')
      .select('error')
      .where('delivery_id', '=', id)
      .orderBy('id')
      .execute();
    expect(attempts).toEqual([{ error: 'Das CRM kennt den Deal nicht.' }, { error: null }]);
    expect(await envelope.crmHistory()).toEqual([]);
  });
});
