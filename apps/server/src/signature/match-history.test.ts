import type { GenerationApprovalRequired, HistoryEntry, ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { demoDataList, demoMatch } from '../test/demo-order.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

/** Remote (1000 − 876) ÷ 1000 = 12,4 %, below the default 15 %: every document of it needs a Freigabe. */
const THIN: ResolvedMatch = { ...demoMatch, matchId: 'PL-95001', vk: 1000, ek: 876, vk2: 1000, ek2: 800 };

const BERATER = 'berater@demo.local';
const LEGAL = 'legal@demo.local';
const LEITUNG = 'leitung@demo.local';
const OPS = 'ops@demo.local';

/**
 * The history of a match (GET /backend/matches/:matchId/documents) names each envelope's Freigabe, and
 * the Freigabe of a document downloaded rather than signed: the status of the newest request.
 */
describe.each(testDatabases())('the match history with Freigabe on $name', (database) => {
  let db: Db;
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([THIN]);
    t = await createTestApp(db, { demoStaff: true, env: { DOCUMENT_EDITOR: 'download' } });
    for (const email of [BERATER, LEGAL, LEITUNG, OPS]) tokens[email] = await t.signIn(email);
    // The envelope goes out without the company's countersignatory: the administrators allow that here.
    const allowed = await t.app.inject({
      method: 'PUT',
      url: '/backend/admin/countersignature/contract',
      headers: as(OPS),
      payload: { withoutAllowed: true },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const as = (email: string) => bearer(tokens[email] as string);
  const history = async (by = LEGAL): Promise<HistoryEntry[]> => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/backend/matches/${THIN.matchId}/documents`,
      headers: as(by),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const entry = async (documentId: string, by = LEGAL) => {
    const found = (await history(by)).find((e) => e.documentId === documentId);
    expect(found).toBeDefined();
    return found as HistoryEntry;
  };
  const decide = (id: string, action: 'approve' | 'decline') =>
    t.app.inject({
      method: 'POST',
      url: `/backend/approvals/${id}/${action}`,
      headers: as(LEITUNG),
      payload: action === 'decline' ? { reason: 'Marge nachverhandeln.' } : {},
    });

  it("shows an envelope's newest request: none, open, declined, then open again", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/de-wm-pp-rv/${THIN.matchId}`,
      headers: as(BERATER),
      payload: {
        dataList: {
          Absender_UserName: 'Berta Berater',
          Absender_Email: BERATER,
          Projektpartner_UserName: 'Paul Partner',
          Projektpartner_Email: 'paul@partner.example',
          vertragspartner_type: 'pp',
        },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const envelopeId = (created.json().data as string).split('/').pop() as string;
    const view = (
      await t.app.inject({
        method: 'GET',
        url: `/backend/signature/envelopes/${envelopeId}`,
        headers: as(BERATER),
      })
    ).json();
    const documentId: string = view.documentId;
    expect((await entry(documentId, BERATER)).envelope).toMatchObject({ id: envelopeId, approval: null });

    const send = {
      subject: view.subject,
      message: '',
      recipients: [
        { role: 'Projektpartner', name: 'Paul Partner', email: 'paul@partner.example', routingOrder: 1 },
      ],
    };
    const ask = () =>
      t.app.inject({
        method: 'POST',
        url: `/backend/signature/envelopes/${envelopeId}/approval`,
        headers: as(BERATER),
        payload: send,
      });
    const first = await ask();
    expect(first.statusCode, first.body).toBe(201);
    expect((await entry(documentId, BERATER)).envelope?.approval).toBe('open');
    expect((await decide(first.json().id, 'decline')).statusCode).toBe(200);
    expect((await entry(documentId, BERATER)).envelope?.approval).toBe('declined');
    // Asked again: the newest request tells, not the declined one before it.
    expect((await ask()).statusCode).toBe(201);
    const again = await entry(documentId, BERATER);
    expect(again.envelope?.approval).toBe('open');
    // An envelope's request is the envelope's; the document itself has none of its own.
    expect(again.approval ?? null).toBeNull();
  });

  it("shows a downloaded document's newest request: open, then approved", async () => {
    const held = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocx/docx-de-wm-rv/${THIN.matchId}`,
      headers: as(LEGAL),
      payload: { dataList: demoDataList('docx-de-wm-rv') },
    });
    expect(held.statusCode, held.body).toBe(409);
    const { documentId }: GenerationApprovalRequired = held.json();
    expect(await entry(documentId)).toMatchObject({ envelope: null, approval: null });
    const asked = await t.app.inject({
      method: 'POST',
      url: `/backend/documents/${documentId}/approval`,
      headers: as(LEGAL),
    });
    expect(asked.statusCode, asked.body).toBe(201);
    expect((await entry(documentId)).approval).toBe('open');
    expect((await decide(asked.json().id, 'approve')).statusCode).toBe(200);
    expect(await entry(documentId)).toMatchObject({ envelope: null, approval: 'approved' });
  });
});
