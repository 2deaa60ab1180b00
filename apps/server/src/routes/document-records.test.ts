import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { storeDocument, storeEnvelope } from '../privacy/fixtures.js';
import { testDatabases } from '../test/databases.js';
import { eventually } from '../test/eventually.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

describe.each(testDatabases())('the reads log on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;
  let berater: string;
  let admin: string;

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { demoStaff: true });
    legal = await t.signIn('legal@demo.local');
    berater = await t.signIn('berater@demo.local');
    admin = await t.signIn('ops@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

  /** The reads are written in batches after the answers: this waits until `count` are there. */
  const readsOf = (documentId: string, count: number) =>
    eventually(`${count} reads of ${documentId}`, async () => {
      const response = await get(`/backend/documents/${documentId}/reads`, legal);
      expect(response.statusCode, response.body).toBe(200);
      const reads: { actor: string; kind: string; version: number | null }[] = response.json();
      return reads.length >= count ? reads : undefined;
    });

  it('records who opened and downloaded a document, a version and a sealed PDF, and shows them to legal staff', async () => {
    const documentId = await storeDocument(db, { matchId: 'PL-20', createdAt: new Date(), versions: 2 });
    const envelopeId = await storeEnvelope(db, {
      documentId,
      matchId: 'PL-20',
      status: 'completed',
      createdAt: new Date(),
      completedAt: new Date(),
    });
    expect((await get(`/backend/documents/${documentId}/file`, berater)).statusCode).toBe(200);
    expect((await get(`/backend/documents/${documentId}/versions/1/file`, legal)).statusCode).toBe(200);
    expect((await get(`/backend/signature/envelopes/${envelopeId}/signed-pdf`, berater)).statusCode).toBe(
      200,
    );
    // A refused read is no read.
    expect((await get(`/backend/documents/${documentId}/versions/9/file`, legal)).statusCode).toBe(404);

    const reads = await readsOf(documentId, 3);
    expect(reads).toHaveLength(3);
    expect(reads.map((r) => [r.actor, r.kind, r.version])).toEqual(
      expect.arrayContaining([
        ['berater@demo.local', 'document', 2],
        ['legal@demo.local', 'version', 1],
        ['berater@demo.local', 'sealed_pdf', null],
      ]),
    );
    expect((await get(`/backend/documents/${documentId}/reads`, admin)).statusCode).toBe(200);
    const refused = await get(`/backend/documents/${documentId}/reads`, berater);
    expect(refused.statusCode).toBe(403);
  });

  it('lists what the rules deleted of a match', async () => {
    await db
      .insertInto('deletion_records')
      .values({
        at: new Date('2031-01-01T00:00:00Z'),
        rule: 'completed_contracts',
        kind: 'document',
        subject_id: 'weg',
        match_id: 'PL-21',
        doc_key: 'de-wm-pp-rv',
        sha256: 'a'.repeat(64),
      })
      .execute();
    const response = await get('/backend/matches/PL-21/deletions', berater);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual([
      {
        kind: 'document',
        subjectId: 'weg',
        docKey: 'de-wm-pp-rv',
        sha256: 'a'.repeat(64),
        rule: 'completed_contracts',
        ruleLabel: 'Abgeschlossene Verträge und ihre gesiegelten PDFs',
        at: '2031-01-01T00:00:00.000Z',
      },
    ]);
  });
  it('records the reads of an API client under its name', async () => {
    const documentId = await storeDocument(db, { matchId: 'PL-22', createdAt: new Date() });
    const created = await t.app.inject({
      method: 'POST',
      url: '/backend/admin/api-clients',
      headers: bearer(admin),
      payload: {
        name: 'Archiv',
        permission: 2,
        expiresOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const token = created.json().token as string;
    expect((await get(`/backend/documents/${documentId}/file`, token)).statusCode).toBe(200);
    const reads = await readsOf(documentId, 1);
    expect(reads).toEqual([expect.objectContaining({ actor: 'api:Archiv', kind: 'document', version: 1 })]);
  });
});
