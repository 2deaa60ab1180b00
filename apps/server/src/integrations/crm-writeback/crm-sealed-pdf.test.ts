import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { type CrmReceiver, type CrmRequest, startCrmReceiver } from '../../test/crm-receiver.js';
import { crmEventSink } from '../../test/crm-writeback-fixture.js';
import { testDatabases } from '../../test/databases.js';
import { recordedEnvelope } from '../../test/recorded-envelope.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { CrmWritebackOutbox } from './crm-writeback-outbox.js';
import { HttpWriteback } from './http-writeback.js';

const PDF = Buffer.from('%PDF-1.7\n% versiegelt für das CRM\n%%EOF\n');
const DAY = 24 * 60 * 60_000;
const quiet = { warn: () => {}, error: () => {} };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface SealedPdfInBody {
  sha256: string;
  url: string;
  headers: Record<string, string>;
  expiresAt: string;
}

describe.each(testDatabases())('the HTTP CRM fetches the sealed PDF on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let publicUrl: string;
  let receiver: CrmReceiver;
  /** What the fake CRM got when it fetched the PDF it was told of, while it answered the write-back. */
  let fetched: { status: number; body: Buffer }[];

  const outbox = (now?: () => Date) =>
    new CrmWritebackOutbox({
      db,
      writer: new HttpWriteback({
        url: `${receiver.url}/deals/{matchId}/vertragsstatus`,
        method: 'POST',
        auth: undefined,
        timeoutMs: 5_000,
        publicUrl,
        now,
      }),
      log: quiet,
    });
  /**
   * A completed envelope of PL-4711 with its sealed PDF, reported as the sealer reports it. Stored as
   * sealed at once, so that no sealer of the app's takes it.
   */
  async function sealedEnvelope(pdf: Buffer): Promise<string> {
    const sink = crmEventSink();
    const { id } = await recordedEnvelope(db, sink);
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('envelopes')
        .set({ status: 'completed', completed_at: new Date(), sealed_pdf: pdf })
        .where('id', '=', id)
        .execute();
      await sink.record({ kind: 'envelope.sealed', envelopeId: id, sha256: sha256(pdf) }, trx);
    });
    return id;
  }
  const completion = () =>
    receiver.received.find((r) => r.body.status === 'Unterschrieben')?.body
      .sealedPdf as unknown as SealedPdfInBody;
  const fetchWith = async (url: string, headers: Record<string, string>) => {
    const response = await fetch(url, { headers });
    return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
  };

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    publicUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });
  beforeEach(async () => {
    await db.deleteFrom('webhook_events').execute();
    await db.deleteFrom('envelopes').execute();
    fetched = [];
    receiver = await startCrmReceiver();
    // As a CRM that files the PDF at once: it fetches it with what the body says before it answers.
    receiver.onAccepted = async (request: CrmRequest) => {
      const sealedPdf = request.body.sealedPdf as unknown as SealedPdfInBody | null | undefined;
      if (sealedPdf) fetched.push(await fetchWith(sealedPdf.url, sealedPdf.headers));
    };
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('gets the sealed bytes with the token its write-back carried, whose SHA-256 is the envelope’s', async () => {
    const envelope = { id: await sealedEnvelope(PDF) };
    expect(await outbox().deliverDue()).toBe(1);

    const sealedPdf = completion();
    expect(sealedPdf).toEqual({
      sha256: sha256(PDF),
      url: `${publicUrl}/backend/crm/envelopes/${envelope.id}/sealed-pdf`,
      headers: { 'x-sealed-pdf-token': expect.stringMatching(/^vgpdf_[A-Za-z0-9_-]{43}$/) },
      expiresAt: expect.any(String),
    });
    const days = (Date.parse(sealedPdf.expiresAt) - Date.now()) / DAY;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    expect(fetched).toHaveLength(1);
    expect(fetched[0]?.status).toBe(200);
    const stored = await db
      .selectFrom('envelopes')
      .select('sealed_pdf')
      .where('id', '=', envelope.id)
      .executeTakeFirstOrThrow();
    expect(sha256(fetched[0]?.body as Buffer)).toBe(sha256(stored.sealed_pdf as Uint8Array));
    expect(sha256(fetched[0]?.body as Buffer)).toBe(sealedPdf.sha256);
    // Only the token's SHA-256 is kept with the write-back.
    const kept = await db
      .selectFrom('webhook_deliveries')
      .select('progress')
      .where('target', '=', 'crm')
      .execute();
    expect(JSON.stringify(kept)).not.toContain(sealedPdf.headers['x-sealed-pdf-token']);
  });

  it('refuses with 401 a wrong token, none, one of another envelope, and an expired one', async () => {
    await sealedEnvelope(PDF);
    // Issued eight days ago: a week's token has expired.
    receiver.onAccepted = undefined;
    expect(await outbox(() => new Date(Date.now() - 8 * DAY)).deliverDue()).toBe(1);
    const expired = completion();
    receiver.received.length = 0;
    await sealedEnvelope(PDF);
    expect(await outbox().deliverDue()).toBe(1);
    const valid = completion();
    const token = valid.headers['x-sealed-pdf-token'] as string;

    const cases: [string, string, Record<string, string>, RegExp][] = [
      ['expired', expired.url, expired.headers, /abgelaufen/],
      ['wrong', valid.url, { 'x-sealed-pdf-token': `vgpdf_${'A'.repeat(43)}` }, /gilt nicht/],
      ['none', valid.url, {}, /fehlt der Schlüssel/],
      ['another envelope’s', expired.url, { 'x-sealed-pdf-token': token }, /gilt nicht/],
    ];
    for (const [name, url, headers, message] of cases) {
      const response = await fetch(url, { headers });
      expect(response.status, name).toBe(401);
      expect(await response.json(), name).toEqual({
        error: 'unauthorized',
        message: expect.stringMatching(message),
      });
    }
    expect((await fetchWith(valid.url, valid.headers)).status).toBe(200);
  });
});
