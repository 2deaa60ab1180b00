import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { storeDocument, storeEnvelope } from '../privacy/fixtures.js';
import { testDatabases } from '../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const PDF = Buffer.from('%PDF-1.7\n% versiegelt\n%%EOF\n');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * Every read of a stored file is on record, whoever reads: staff opening an approval's document, the
 * certificate, the envelope's document, a download, a seal check, and the CRM and a webhook receiver
 * fetching a sealed PDF with their own credentials. The reads wait in a buffer; a stop writes them.
 */
describe.each(testDatabases())('the reads of every file route on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let documentId: string;
  let envelopeId: string;
  let approvalId: string;
  let endpointSecret: string;
  let endpointId: string;
  const crmToken = `vgpdf_${randomBytes(32).toString('base64url')}`;

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { demoStaff: true });
    documentId = await storeDocument(db, { matchId: 'PL-25', createdAt: new Date(), versions: 2 });
    envelopeId = await storeEnvelope(db, {
      documentId,
      matchId: 'PL-25',
      status: 'completed',
      createdAt: new Date(),
      completedAt: new Date(),
    });
    await db
      .updateTable('envelopes')
      .set({ sealed_pdf: PDF, sealed_sha256: sha256(PDF) })
      .where('id', '=', envelopeId)
      .execute();
    const { rows } = await sql<{ id: string }>`insert into approval_requests (document_id, document_version,
        document_sha256, match_id, doc_key, file_name, requested_by, requested_by_name, reasons, rules, status)
      values (${documentId}, 2, 'x', 'PL-25', 'de-wm-pp-rv', 'Vertrag.docx', 'berater@demo.local', 'Berta',
        '[]', '{}', 'void') returning id`.execute(db);
    approvalId = rows[0]?.id ?? '';
    // The CRM's write-back carried a token for the sealed PDF; a webhook endpoint was told of the completion.
    endpointSecret = `whsec_${randomBytes(24).toString('base64')}`;
    const endpoint = await db
      .insertInto('webhook_endpoints')
      .values({
        url: 'https://empfaenger.example/hook',
        events: ['envelope.completed'],
        secret: endpointSecret,
        created_by: 'ops@demo.local',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    endpointId = endpoint.id;
    const event = await db
      .insertInto('webhook_events')
      .values({ type: 'envelope.completed', payload: JSON.stringify({ data: { envelopeId } }) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('webhook_deliveries')
      .values([
        { event_id: event.id, endpoint_id: endpointId, ordering_key: null },
        {
          event_id: event.id,
          endpoint_id: null,
          target: 'crm',
          ordering_key: null,
          progress: JSON.stringify({
            sealedPdfGrant: {
              sha256: sha256(crmToken),
              expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
            },
          }),
        },
      ])
      .execute();
  });
  afterAll(() => db.destroy());

  it('records staff, the CRM and a webhook receiver, and writes what waits when the server stops', async () => {
    const berater = await t.signIn('berater@demo.local');
    const get = (url: string, headers: Record<string, string> = bearer(berater)) =>
      t.app.inject({ method: 'GET', url, headers });
    const reads: [string, number][] = [
      [
        `/backend/approvals/${approvalId}/document`,
        (await get(`/backend/approvals/${approvalId}/document`)).statusCode,
      ],
      [`certificate`, (await get(`/backend/signature/envelopes/${envelopeId}/certificate`)).statusCode],
      [`document`, (await get(`/backend/signature/envelopes/${envelopeId}/document`)).statusCode],
      [`download`, (await get(`/backend/documents/${documentId}/download`)).statusCode],
    ];
    const check = await t.app.inject({
      method: 'POST',
      url: '/backend/signature/check',
      headers: { ...bearer(berater), 'content-type': 'application/pdf' },
      payload: PDF,
    });
    reads.push(['check', check.statusCode]);
    expect(check.json().envelope?.id, check.body).toBe(envelopeId);
    const crm = await get(`/backend/crm/envelopes/${envelopeId}/sealed-pdf`, {
      'x-sealed-pdf-token': crmToken,
    });
    reads.push(['crm', crm.statusCode]);
    const timestamp = new Date();
    const signature = new Webhook(endpointSecret).sign(envelopeId, timestamp, '');
    const hook = await get(`/backend/webhooks/envelopes/${envelopeId}/sealed-pdf`, {
      'webhook-endpoint': endpointId,
      'webhook-id': envelopeId,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    });
    reads.push(['webhook', hook.statusCode]);
    // A fetch the route refuses is no read.
    expect(
      (await get(`/backend/crm/envelopes/${envelopeId}/sealed-pdf`, { 'x-sealed-pdf-token': 'falsch' }))
        .statusCode,
    ).toBe(401);
    expect(reads.filter(([, status]) => status !== 200)).toEqual([]);

    await t.app.close();
    const recorded = await db
      .selectFrom('document_reads')
      .select(['actor', 'kind', 'document_id', 'envelope_id', 'version'])
      .orderBy('at')
      .execute();
    expect(recorded).toEqual(
      expect.arrayContaining([
        {
          actor: 'berater@demo.local',
          kind: 'version',
          document_id: documentId,
          envelope_id: null,
          version: 2,
        },
        expect.objectContaining({
          actor: 'berater@demo.local',
          kind: 'certificate',
          envelope_id: envelopeId,
          document_id: documentId,
        }),
        expect.objectContaining({
          actor: 'berater@demo.local',
          kind: 'envelope_document',
          envelope_id: envelopeId,
        }),
        expect.objectContaining({
          actor: 'berater@demo.local',
          kind: 'version',
          document_id: documentId,
          envelope_id: null,
          version: 2,
        }),
        expect.objectContaining({ actor: 'berater@demo.local', kind: 'seal_check', envelope_id: envelopeId }),
        expect.objectContaining({
          actor: 'crm',
          kind: 'sealed_pdf',
          envelope_id: envelopeId,
          document_id: documentId,
        }),
        expect.objectContaining({
          actor: `webhook:${endpointId}`,
          kind: 'sealed_pdf',
          envelope_id: envelopeId,
        }),
      ]),
    );
    expect(recorded).toHaveLength(7);
  });
});
