import type { ResolvedMatch, WebhookEndpointCreated, WebhookEventType } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { demoDataList, demoMatch } from '../test/demo-order.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';
import {
  startWebhookReceiver,
  type VerifiedWebhook,
  type WebhookReceiver,
} from '../test/webhook-receiver.js';

/** Remote (1000 − 876) ÷ 1000 = 12,4 %: below the default 15 %. */
const THIN: ResolvedMatch = { ...demoMatch, matchId: 'PL-93001', vk: 1000, ek: 876, vk2: 1000, ek2: 800 };

const OPS = 'ops@demo.local';
const BERATER = 'berater@demo.local';
const LEITUNG = 'leitung@demo.local';
const LEGAL = 'legal@demo.local';
const PARTNER = { name: 'Paul Partner', email: 'paul@partner.example' };
const EVENTS: WebhookEventType[] = [
  'document.generated',
  'approval.requested',
  'approval.approved',
  'approval.declined',
];

/**
 * The approval events as a receiver of ours gets them from the running app: each verified with the
 * `standardwebhooks` library, for a downloaded document (named by its document) and for an envelope.
 */
describe.each(testDatabases())('approval webhooks on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let receiver: WebhookReceiver;
  const tokens: Record<string, string> = {};
  const as = (email: string) => bearer(tokens[email] as string);

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([THIN]);
    t = await createTestApp(db, { demoStaff: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    for (const email of [OPS, BERATER, LEITUNG, LEGAL]) tokens[email] = await t.signIn(email);
    // These envelopes go out without the company's countersignatory: the administrators allow that here.
    const allowed = await t.app.inject({
      method: 'PUT',
      url: '/backend/admin/countersignature/contract',
      headers: as(OPS),
      payload: { withoutAllowed: true },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    receiver = await startWebhookReceiver();
    const created = await t.app.inject({
      method: 'POST',
      url: '/backend/admin/webhooks',
      headers: as(OPS),
      payload: { url: receiver.url, events: EVENTS },
    });
    expect(created.statusCode, created.body).toBe(201);
    receiver.useSecret((created.json() as WebhookEndpointCreated).secret);
  });
  afterAll(async () => {
    await receiver.close();
    await t.app.close();
    await db.destroy();
  });

  /** The verified events about `id` (a document's or an envelope's), once `count` of them arrived. */
  async function eventsOf(key: 'documentId' | 'envelopeId', id: string, count: number) {
    const of = () => receiver.verified.filter((v) => v.data[key] === id);
    await expect.poll(() => of().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
    return of();
  }

  async function generate(): Promise<string> {
    const response = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocx/docx-de-wm-rv/${THIN.matchId}`,
      headers: as(LEGAL),
      payload: { dataList: demoDataList('docx-de-wm-rv') },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.headers['x-document-id'] as string;
  }
  const askDocument = (documentId: string) =>
    t.app.inject({ method: 'POST', url: `/backend/documents/${documentId}/approval`, headers: as(LEGAL) });
  const decide = (id: string, how: 'approve' | 'decline', payload: object) =>
    t.app.inject({ method: 'POST', url: `/backend/approvals/${id}/${how}`, headers: as(LEITUNG), payload });

  it('tells of a document’s approval asked for and granted, in order after its generation, naming the document', async () => {
    const documentId = await generate();
    const asked = await askDocument(documentId);
    expect(asked.statusCode, asked.body).toBe(201);
    const approvalId = asked.json().id as string;
    expect((await decide(approvalId, 'approve', { comment: 'Passt.' })).statusCode).toBe(200);

    const events: VerifiedWebhook[] = await eventsOf('documentId', documentId, 3);
    expect(receiver.refused).toEqual([]);
    expect(events.map((e) => e.type)).toEqual([
      'document.generated',
      'approval.requested',
      'approval.approved',
    ]);
    expect(events[1]?.data).toEqual({
      approvalId,
      documentId,
      documentVersion: 1,
      matchId: THIN.matchId,
      docKey: 'docx-de-wm-rv',
      fileName: expect.stringMatching(/\.docx$/),
      requestedBy: LEGAL,
      reasons: ['Marge remote 12,4 % liegt unter 15 % (WM)'],
      status: 'open',
    });
    expect(events[1]?.data).not.toHaveProperty('envelopeId');
    expect(events[2]?.data).toMatchObject({
      approvalId,
      documentId,
      status: 'approved',
      decidedBy: LEITUNG,
      reason: 'Passt.',
    });
    const keys = await db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
      .select(['webhook_events.type', 'webhook_deliveries.ordering_key'])
      .execute();
    const ofDocument = keys.filter((k) => k.ordering_key === `document:${documentId}`).map((k) => k.type);
    expect(ofDocument.sort()).toEqual(['approval.approved', 'approval.requested', 'document.generated']);
  });

  it('tells of a document’s approval declined, with the reason', async () => {
    const documentId = await generate();
    const asked = await askDocument(documentId);
    expect(asked.statusCode, asked.body).toBe(201);
    const declined = await decide(asked.json().id, 'decline', { reason: 'Marge zu dünn für diesen Kunden.' });
    expect(declined.statusCode, declined.body).toBe(200);
    const events = await eventsOf('documentId', documentId, 3);
    expect(events.map((e) => e.type)).toEqual([
      'document.generated',
      'approval.requested',
      'approval.declined',
    ]);
    expect(events[2]?.data).toMatchObject({
      documentId,
      status: 'declined',
      decidedBy: LEITUNG,
      reason: 'Marge zu dünn für diesen Kunden.',
    });
  });

  it('tells of an envelope’s approval asked for and granted, naming the envelope', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/de-we-pp-ev/${THIN.matchId}`,
      headers: as(BERATER),
      payload: {
        dataList: {
          Absender_UserName: 'Berta Berater',
          Absender_Email: BERATER,
          Projektpartner_UserName: PARTNER.name,
          Projektpartner_Email: PARTNER.email,
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
    const asked = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${envelopeId}/approval`,
      headers: as(BERATER),
      payload: {
        subject: view.subject,
        message: 'Bitte unterschreiben.',
        recipients: view.recipients.map(({ role, name, email, routingOrder }: Record<string, unknown>) => ({
          role,
          name,
          email,
          routingOrder,
        })),
      },
    });
    expect(asked.statusCode, asked.body).toBe(201);
    expect((await decide(asked.json().id, 'approve', {})).statusCode).toBe(200);
    const events = await eventsOf('envelopeId', envelopeId, 2);
    expect(events.map((e) => e.type)).toEqual(['approval.requested', 'approval.approved']);
    expect(events[0]?.data).toMatchObject({ envelopeId, matchId: THIN.matchId });
  });
});
