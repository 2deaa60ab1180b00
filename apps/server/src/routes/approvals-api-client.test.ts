import type { ApiClientCreated, ApprovalRequest, ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { DatabaseMatchSource } from '../matches/database-match-source.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { demoMatch } from '../test/demo-order.js';
import { editedDocx } from '../test/docx-fixture.js';
import { SwitchableSource } from '../test/switchable-match-source.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

/** Remote (1000 − 876) ÷ 1000 = 12,4 %, below the default 15 %. */
const THIN: ResolvedMatch = { ...demoMatch, matchId: 'PL-96001', vk: 1000, ek: 876, vk2: 1000, ek2: 800 };
const OPS = 'ops@demo.local';
const LEITUNG = 'leitung@demo.local';
const LEGAL = 'legal@demo.local';
const PARTNER = { name: 'Paul Partner', email: 'paul@partner.example' };
/** The countersignatory of WE's documents (config/signatories.json). */
const WE_SIGNATORY = 'sabine-kroll';

/**
 * Freigabe asked for by an API client (requested_by `api:<name>`): its send request is checked like a
 * person's, and no mail is written to `api:<name>`, which is no mailbox — neither the decision, nor a
 * failed send, nor a reply-to on the approvers' mail.
 */
describe.each(testDatabases())('Freigabe asked for by an API client on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let source: SwitchableSource;
  let client: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([THIN]);
    source = new SwitchableSource(new DatabaseMatchSource(db));
    t = await createTestApp(db, { demoStaff: true, matches: source });
    for (const email of [OPS, LEITUNG, LEGAL]) tokens[email] = await t.signIn(email);
    const created = await t.app.inject({
      method: 'POST',
      url: '/backend/admin/api-clients',
      headers: as(OPS),
      payload: {
        name: 'CRM Vertragsbutton',
        permission: 1,
        expiresOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    client = created.json<ApiClientCreated>().token;
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const as = (email: string) => bearer(tokens[email] as string);
  const withoutCountersignature = async (allowed: boolean) => {
    const set = await t.app.inject({
      method: 'PUT',
      url: '/backend/admin/countersignature/contract',
      headers: as(OPS),
      payload: { withoutAllowed: allowed },
    });
    expect(set.statusCode, set.body).toBe(200);
  };

  /** A WE partner contract of the thin deal, drafted by the API client; its envelope id. */
  async function draft(): Promise<string> {
    const created = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/de-we-pp-ev/${THIN.matchId}`,
      headers: bearer(client),
      payload: {
        dataList: {
          Absender_UserName: 'Berta Berater',
          Absender_Email: 'berater@demo.local',
          Projektpartner_UserName: PARTNER.name,
          Projektpartner_Email: PARTNER.email,
          vertragspartner_type: 'pp',
        },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    return (created.json().data as string).split('/').pop() as string;
  }
  const sendBody = (countersignatory?: string | null) => ({
    subject: 'Bitte unterschreiben',
    message: '',
    recipients: [{ role: 'Projektpartner', ...PARTNER, routingOrder: 1 }],
    ...(countersignatory === undefined ? {} : { countersignatory }),
  });
  const ask = (id: string, body: object) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/approval`,
      headers: bearer(client),
      payload: body,
    });
  const requestsOf = (envelopeId: string) =>
    db.selectFrom('approval_requests').select('id').where('envelope_id', '=', envelopeId).execute();
  /** Every mail written so far: none to, nor replying to, an API client. */
  const apiAddressed = async () =>
    (await db.selectFrom('outgoing_mail').select(['recipient', 'reply_to']).execute()).filter(
      (m) => m.recipient?.startsWith('api:') || m.reply_to?.startsWith('api:'),
    );

  it('refuses a send request without the countersignatory the family needs, or with an unknown one, before storing it', async () => {
    await withoutCountersignature(false);
    const id = await draft();
    const missing = await ask(id, sendBody());
    expect(missing.statusCode, missing.body).toBe(400);
    expect(missing.json().fields.countersignatory).toEqual([
      'Ein Dokument der Art „Vertrag“ darf nicht ohne Gegenzeichnung versendet werden. Bitte wähle, wer für die Firma gegenzeichnet.',
    ]);
    const unknown = await ask(id, sendBody('niemand-bekanntes'));
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(unknown.json().fields.countersignatory).toEqual([
      'Diese Person kann für die Firma dieses Dokuments nicht gegenzeichnen.',
    ]);
    expect(await requestsOf(id)).toEqual([]);

    // With a countersignatory of the company the request is taken, and the approved send goes out.
    const asked = await ask(id, sendBody(WE_SIGNATORY));
    expect(asked.statusCode, asked.body).toBe(201);
    const approved = await t.app.inject({
      method: 'POST',
      url: `/backend/approvals/${asked.json().id}/approve`,
      headers: as(LEITUNG),
      payload: {},
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().send).toMatchObject({ state: 'done' });
  });

  it('writes no mail to the API client: not as reply-to, not the decision, not the failed send', async () => {
    await withoutCountersignature(true);
    const id = await draft();
    // Asked, declined: the approvers are mailed without a reply-to, the decision goes to nobody.
    const first: ApprovalRequest = (await ask(id, sendBody(null))).json();
    expect(first.requestedBy.email).toBe('api:CRM Vertragsbutton');
    const declined = await t.app.inject({
      method: 'POST',
      url: `/backend/approvals/${first.id}/decline`,
      headers: as(LEITUNG),
      payload: { reason: 'Marge nachverhandeln.' },
    });
    expect(declined.statusCode, declined.body).toBe(200);
    const toApprovers = await db
      .selectFrom('outgoing_mail')
      .select(['recipient', 'reply_to'])
      .where('reference', '=', `approval:${first.id}`)
      .execute();
    expect(toApprovers.map((m) => m.recipient)).toContain(LEITUNG);
    expect(toApprovers.every((m) => m.reply_to === null)).toBe(true);

    // Asked again and approved while the CRM is down: the send waits; the document is edited meanwhile,
    // so the send fails and the approval is void — with nobody to mail.
    const second: ApprovalRequest = (await ask(id, sendBody(null))).json();
    source.down = true;
    const approved = await t.app.inject({
      method: 'POST',
      url: `/backend/approvals/${second.id}/approve`,
      headers: as(LEITUNG),
      payload: {},
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().send).toMatchObject({ state: 'pending' });
    const documentId = second.documentId;
    const latest = await t.app.inject({
      method: 'GET',
      url: `/backend/documents/${documentId}/file`,
      headers: as(LEGAL),
    });
    expect(latest.statusCode, latest.body).toBe(200);
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/backend/documents/${documentId}`,
      headers: {
        ...as(LEGAL),
        'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'if-match': `"${latest.headers['x-document-version']}"`,
      },
      payload: editedDocx(latest.rawPayload, 'Nachträglich geändert.'),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    source.down = false;
    await db
      .updateTable('approval_requests')
      .set({ send_due_at: new Date(0) })
      .where('id', '=', second.id)
      .execute();
    // Another server process on the same database takes the due send up as it starts.
    const other = await createTestApp(db, { matches: source });
    try {
      await expect
        .poll(
          async () =>
            db
              .selectFrom('approval_requests')
              .select(['status', 'send_state', 'void_reason'])
              .where('id', '=', second.id)
              .executeTakeFirstOrThrow(),
          { timeout: 15_000 },
        )
        .toEqual({
          status: 'void',
          send_state: 'failed',
          void_reason: 'Dokument nach der Freigabe geändert',
        });
    } finally {
      await other.app.close();
    }
    expect(await apiAddressed()).toEqual([]);
    // The outbox has nothing it would retry for ever.
    const undeliverable = await db
      .selectFrom('outgoing_mail')
      .select('recipient')
      .where('sent_at', 'is', null)
      .where('recipient', 'not like', '%@%')
      .execute();
    expect(undeliverable).toEqual([]);
  });
});
