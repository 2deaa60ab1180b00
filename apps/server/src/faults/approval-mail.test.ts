import type { ApprovalRequest, EnvelopeView, ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { MailOutbox } from '../mail/mail-outbox.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { demoMatch } from '../test/demo-order.js';
import { bearer, createTestApp, RecordingMailer, type TestApp } from '../test/test-app.js';

/** Remote (1000 − 876) ÷ 1000 = 12,4 %, below the default 15 %. */
const THIN: ResolvedMatch = { ...demoMatch, matchId: 'PL-97001', vk: 1000, ek: 876, vk2: 1000, ek2: 800 };
const BERATER = 'berater@demo.local';
const LEITUNG = 'leitung@demo.local';
const quiet = { warn() {} };

/**
 * The mail server is down when a Freigabe is asked for: the request is stored once and answered 201,
 * its mail waits in the outbox and reaches each approver exactly once when the server is back.
 */
describe.each(testDatabases())('Freigabe while mail fails on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let mailer: RecordingMailer;
  /** The app's outbox, driven by the test instead of its 30 s timer, on a clock of the test's own. */
  let outbox: MailOutbox;
  let berater: string;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([THIN]);
    mailer = new RecordingMailer();
    t = await createTestApp(db, { demoStaff: true, mailer });
    outbox = new MailOutbox(db, mailer, 'support@demo.local', quiet);
    berater = await t.signIn(BERATER);
    // The envelope goes out without the company's countersignatory: the administrators allow that here.
    const allowed = await t.app.inject({
      method: 'PUT',
      url: '/backend/admin/countersignature/contract',
      headers: bearer(await t.signIn('ops@demo.local')),
      payload: { withoutAllowed: true },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const hoursLater = (hours: number) => new Date(Date.now() + hours * 3600_000);

  it('stores the request once and mails each approver exactly once after the outbox retried', async () => {
    mailer.failing = true;
    const created = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/de-we-pp-ev/${THIN.matchId}`,
      headers: bearer(berater),
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
    const id = (created.json().data as string).split('/').pop() as string;
    const draft: EnvelopeView = (
      await t.app.inject({
        method: 'GET',
        url: `/backend/signature/envelopes/${id}`,
        headers: bearer(berater),
      })
    ).json();
    const asked = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/approval`,
      headers: bearer(berater),
      payload: {
        subject: draft.subject,
        message: '',
        recipients: draft.recipients
          .filter((r) => r.role !== 'Firma')
          .map(({ role, name, email, routingOrder }) => ({ role, name, email, routingOrder })),
      },
    });
    // The mail server's trouble is the outbox's, not the requester's.
    expect(asked.statusCode, asked.body).toBe(201);
    const request: ApprovalRequest = asked.json();
    expect(
      await db.selectFrom('approval_requests').select('id').where('envelope_id', '=', id).execute(),
    ).toEqual([{ id: request.id }]);
    const queued = () =>
      db
        .selectFrom('outgoing_mail')
        .select(['recipient', 'sent_at', 'attempts', 'last_error'])
        .where('reference', '=', `approval:${request.id}`)
        .execute();
    // The app's own immediate attempt is refused.
    await expect
      .poll(async () => (await queued()).every((m) => m.last_error !== null && m.sent_at === null), {
        timeout: 5_000,
      })
      .toBe(true);
    expect((await queued()).map((m) => m.recipient)).toContain(LEITUNG);
    expect(mailer.sent).toEqual([]);
    expect(await outbox.deliverDue(hoursLater(1))).toBe(0);

    mailer.failing = false;
    const waiting = (await queued()).length;
    expect(await outbox.deliverDue(hoursLater(3))).toBe(waiting);
    expect(await outbox.deliverDue(hoursLater(6))).toBe(0);
    expect(mailer.sent.filter((m) => m.to === LEITUNG)).toHaveLength(1);
    expect(mailer.sent.filter((m) => m.to === LEITUNG)[0]?.subject).toMatch(/^Freigabe erbeten: /);
    expect((await queued()).every((m) => m.sent_at !== null)).toBe(true);
    // Still the one request, still open.
    expect(
      await db
        .selectFrom('approval_requests')
        .select(['id', 'status'])
        .where('envelope_id', '=', id)
        .execute(),
    ).toEqual([{ id: request.id, status: 'open' }]);
  });
});
