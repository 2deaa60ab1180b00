import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { DeletionRun } from '../privacy/deletion-run.js';
import { storeDocument, storeEnvelope } from '../privacy/fixtures.js';
import { RetentionRules } from '../privacy/retention-rules.js';
import { testDatabases } from '../test/databases.js';
import { demoMatch } from '../test/demo-order.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const quiet = { error() {}, warn() {}, info() {} } as never;
const YEAR = 365 * 24 * 60 * 60_000;

describe.each(testDatabases())(
  'an envelope whose document a retention rule deleted, on $name',
  (database) => {
    let db: Db;
    let t: TestApp;
    let declined: string;
    let draft: string;
    let kept: string;

    beforeAll(async () => {
      db = await database.open();
      await new MatchStore(db).upsertMany([demoMatch]);
      t = await createTestApp(db, { demoStaff: true });
      const matchId = demoMatch.matchId;
      const longAgo = new Date(Date.now() - YEAR);
      declined = await storeEnvelope(db, {
        documentId: await storeDocument(db, { matchId, createdAt: longAgo }),
        matchId,
        status: 'declined',
        createdAt: longAgo,
        recipients: [{ name: 'Jana Kowalski', email: 'jana@example.org', status: 'declined' }],
      });
      draft = await storeEnvelope(db, {
        documentId: await storeDocument(db, { matchId, createdAt: longAgo }),
        matchId,
        status: 'created',
        createdAt: longAgo,
      });
      const recent = new Date();
      kept = await storeEnvelope(db, {
        documentId: await storeDocument(db, { matchId, createdAt: recent }),
        matchId,
        status: 'declined',
        createdAt: recent,
      });
      const audit = new AuditLog(db);
      const counts = await new DeletionRun({
        db,
        audit,
        rules: new RetentionRules(db, audit, () => new Date()),
        log: quiet,
      }).run();
      // The rules of a new database: declined after 6 months, drafts after 90 days; the recent one stays.
      expect(counts).toMatchObject({ ended_envelopes: 1, envelope_drafts: 1 });
    });
    afterAll(async () => {
      await t.app.close();
      await db.destroy();
    });

    const get = async (url: string, email = 'legal@demo.local') =>
      t.app.inject({ method: 'GET', url, headers: bearer(await t.signIn(email)) });

    it('stays in the overview, counted and listed, without a file name', async () => {
      for (const email of ['legal@demo.local', 'berater@demo.local']) {
        const response = await get('/backend/signature/envelopes?status=all', email);
        expect(response.statusCode, response.body).toBe(200);
        const { envelopes, counts } = response.json();
        const byId = new Map(
          envelopes.map((e: { id: string; fileName: string | null }) => [e.id, e.fileName]),
        );
        expect(byId.get(declined)).toBeNull();
        expect(byId.get(draft)).toBeNull();
        expect(byId.get(kept)).toBe('Vertrag.docx');
        expect(counts.all).toBe(envelopes.length);
      }
    });

    it('opens in the sender view with its recipients and history', async () => {
      const response = await get(`/backend/signature/envelopes/${declined}`);
      expect(response.statusCode, response.body).toBe(200);
      const view = response.json();
      expect(view.fileName).toBeNull();
      expect(view.recipients).toEqual([
        expect.objectContaining({ name: 'Jana Kowalski', status: 'declined' }),
      ]);
    });

    it('answers its files with 410 and says why in German', async () => {
      for (const file of ['document', 'document.pdf', 'certificate']) {
        const response = await get(`/backend/signature/envelopes/${declined}/${file}`);
        expect(response.statusCode, `${file}: ${response.body}`).toBe(410);
        expect(response.json()).toMatchObject({
          error: 'document_deleted',
          message: expect.stringMatching(/Aufbewahrungsfrist gelöscht\. .*erzeuge das Dokument neu/),
        });
      }
      expect((await get(`/backend/signature/envelopes/${kept}/document`)).statusCode).toBe(200);
    });

    it('refuses to send a draft whose document is gone: it lapsed', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: `/backend/signature/envelopes/${draft}/send`,
        headers: bearer(await t.signIn('berater@demo.local')),
        payload: {
          subject: 'Bitte unterschreiben',
          message: '',
          recipients: [
            { role: 'Projektpartner', name: 'Jana Kowalski', email: 'jana@example.org', routingOrder: 1 },
          ],
        },
      });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json().error).toBe('envelope_lapsed');
      const row = await db
        .selectFrom('envelopes')
        .select('status')
        .where('id', '=', draft)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('lapsed');
    });
  },
);
