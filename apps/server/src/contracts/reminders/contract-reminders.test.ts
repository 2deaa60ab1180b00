import { randomUUID } from 'node:crypto';
import type { ContractKind, ContractReminderSetting } from '@vertragsgenerator/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../admin/audit-log.js';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { WebhookEventSink } from '../../integrations/webhooks/webhook-events.js';
import { MailOutbox } from '../../mail/mail-outbox.js';
import type { EventSink } from '../../shared/product-events.js';
import { testDatabases } from '../../test/databases.js';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.js';
import { addDaysIso } from '../contract-queries.js';
import { ContractReminders } from './contract-reminders.js';
import { ContractReminderSettings } from './reminder-settings.js';

const PUBLIC_URL = 'https://vertrag.example';
const quiet = { warn() {}, error() {}, info() {} };
/** Noon in Berlin on an ISO day (summer or winter: 10:00 or 11:00 UTC, both the same day there). */
const noonOf = (day: string) => new Date(`${day}T10:00:00Z`);

let matches = 10_000;

describe.each(testDatabases())('reminders of running contracts on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let admin: string;
  let legalToken: string;
  const outboxes: MailOutbox[] = [];
  /** Every member of legal staff (level 2) in the demo directory: each gets every reminder. */
  let legalStaff: string[];

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { demoStaff: true });
    [admin, legalToken] = await Promise.all([t.signIn('ops@demo.local'), t.signIn('legal@demo.local')]);
    legalStaff = (
      await db.selectFrom('users').select('email').where('permission', '=', 2).orderBy('email').execute()
    ).map((row) => row.email);
    await db
      .insertInto('webhook_endpoints')
      .values({
        url: 'https://empfaenger.example/hook',
        events: ['contract.deadline_approaching', 'contract.ended'],
        secret: `whsec_${Buffer.alloc(24, 3).toString('base64')}`,
        created_by: 'ops@demo.local',
      })
      .execute();
  });
  afterAll(async () => {
    await Promise.all(outboxes.map((outbox) => outbox.stop()));
    await t.app.close();
    await db.destroy();
  });

  /** A replica's run, as the server builds it; `events` replaces the webhooks where a test makes it fail. */
  function replica(events: EventSink<Kysely<Database>> = new WebhookEventSink(PUBLIC_URL)) {
    const outbox = new MailOutbox(db, t.mailer, 'support@demo.local', quiet);
    outboxes.push(outbox);
    return new ContractReminders({
      db,
      outbox,
      settings: new ContractReminderSettings(db, new AuditLog(db)),
      events,
      publicUrl: PUBLIC_URL,
      log: quiet,
    });
  }

  interface RecordInput {
    kind?: ContractKind;
    company?: 'wm' | 'we' | 'wp';
    consultant?: string;
    end?: string | null;
    notice?: string | null;
    parent?: { id: string; relation: 'under' | 'changes' | 'ends' };
  }

  /** A running contract as the recorder stores one (its source is not what these tests are about). */
  async function record(input: RecordInput = {}): Promise<{ id: string; matchId: string }> {
    const matchId = `PL-${++matches}`;
    const row = await db
      .insertInto('contract_records')
      .values({
        source_kind: 'signed_elsewhere',
        envelope_id: null,
        document_id: randomUUID(),
        document_version: 1,
        match_id: matchId,
        doc_key: 'de-we-pp-ev',
        kind: input.kind ?? 'einzelauftrag',
        company: input.company ?? 'we',
        partner_type: 'pp',
        language: 'de',
        counterparty: 'Jana Kowalski IT-Beratung',
        customer: 'Elbwerk Logistik AG',
        consultant: input.consultant ?? 'Anna Albrecht',
        parties: JSON.stringify([]),
        terms_source: 'document',
        start_date: '2027-01-04',
        end_date: input.end === undefined ? '2027-06-30' : input.end,
        notice_text: '4 Wochen zum Monatsende',
        notice_rule_source: 'read',
        last_notice_day: input.notice === undefined ? '2027-06-02' : input.notice,
        parent_id: input.parent?.id ?? null,
        relation: input.parent?.relation ?? null,
        signed_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, matchId };
  }

  /** The reminder mails queued for a contract, by recipient and subject. */
  const mailsOf = async (id: string) =>
    db
      .selectFrom('outgoing_mail')
      .select(['recipient', 'subject', 'body'])
      .where('reference', 'like', `contract:${id}:%`)
      .orderBy('id')
      .execute();
  const historyOf = async (id: string) =>
    (
      await db
        .selectFrom('contract_events')
        .select(['type', 'detail'])
        .where('contract_id', '=', id)
        .orderBy('at')
        .orderBy('id')
        .execute()
    ).filter((e) => e.type !== 'created');
  const webhooksOf = async (id: string) =>
    (await db.selectFrom('webhook_events').select(['type', 'payload']).orderBy('created_at').execute())
      .filter((e) => (e.payload.data as { contractId?: string }).contractId === id)
      .map((e) => ({ type: e.type, deadline: (e.payload.data as { deadline?: unknown }).deadline }));

  it('mails the consultant and legal staff once before the notice deadline, once before the end, and reports the end once', async () => {
    const { id, matchId } = await record();
    const run = replica();
    // 61 days before the last day to give notice (02.06.2027): not yet.
    await run.run(noonOf('2027-04-02'));
    expect(await mailsOf(id)).toHaveLength(0);

    // 22:30 UTC on 02.04. is already 03.04. in Berlin: 60 days before.
    expect(await run.run(new Date('2027-04-02T22:30:00Z'))).toMatchObject({ reminded: 1 });
    const notice = await mailsOf(id);
    expect(notice.map((m) => m.recipient)).toEqual(['anna.albrecht@demo.local', ...legalStaff]);
    const [first] = notice;
    expect(first?.subject).toBe(`Kündigungsfrist am 02.06.2027: ${matchId} Jana Kowalski IT-Beratung`);
    expect(first?.body).toContain('der letzte Tag, um zu kündigen, ist der 02.06.2027 (in 60 Tagen)');
    expect(first?.body).toContain('Kunde: Elbwerk Logistik AG');
    expect(first?.body).toContain('Was zu tun ist:');
    expect(first?.body).toContain(`Zum Vertrag: ${PUBLIC_URL}/vertraege/${id}`);

    // The same day again, the next days, the deadline itself: nothing more about the notice.
    for (const day of ['2027-04-03', '2027-04-04', '2027-05-20', '2027-06-02']) await run.run(noonOf(day));
    expect(await mailsOf(id)).toHaveLength(notice.length);

    // 15 days before the end: not yet; 14 days before: the end's reminder, once.
    await run.run(noonOf('2027-06-15'));
    expect(await mailsOf(id)).toHaveLength(notice.length);
    await run.run(noonOf('2027-06-16'));
    await run.run(noonOf('2027-06-16'));
    await run.run(noonOf('2027-06-30'));
    const all = await mailsOf(id);
    expect(all).toHaveLength(2 * notice.length);
    expect(all.at(-1)?.subject).toBe(`Vertragsende am 30.06.2027: ${matchId} Jana Kowalski IT-Beratung`);
    expect(all.at(-1)?.body).toContain('dieser Vertrag endet am 30.06.2027 (in 14 Tagen)');

    // The day after the end: ended, once, without a mail.
    expect(await run.run(noonOf('2027-07-01'))).toEqual({ reminded: 0, ended: 1, failed: 0 });
    await run.run(noonOf('2027-07-02'));
    expect(await mailsOf(id)).toHaveLength(2 * notice.length);

    expect(await historyOf(id)).toEqual([
      {
        type: 'notice_reminder',
        detail: `Erinnerung an die Kündigungsfrist am 02.06.2027 an ${['anna.albrecht@demo.local', ...legalStaff].join(', ')}`,
      },
      {
        type: 'end_reminder',
        detail: expect.stringMatching(/^Erinnerung an das Vertragsende am 30\.06\.2027 an /),
      },
      { type: 'ended', detail: 'Vertrag am 30.06.2027 beendet' },
    ]);
    expect(await webhooksOf(id)).toEqual([
      { type: 'contract.deadline_approaching', deadline: { kind: 'notice', day: '2027-06-02' } },
      { type: 'contract.deadline_approaching', deadline: { kind: 'end', day: '2027-06-30' } },
      { type: 'contract.ended', deadline: undefined },
    ]);
  });

  it('mails legal staff only where the consultant is not in the staff directory', async () => {
    const { id } = await record({ consultant: 'Niemand Unbekannt', notice: '2028-03-01', end: '2028-03-31' });
    // Due the same day, so written in the same batch: each contract's own consultant, matched by name
    // regardless of case and spaces.
    const known = await record({ consultant: ' anna ALBRECHT ', notice: '2028-03-01', end: '2028-03-31' });
    await replica().run(noonOf('2028-02-01'));
    expect((await mailsOf(id)).map((m) => m.recipient)).toEqual(legalStaff);
    expect((await mailsOf(known.id)).map((m) => m.recipient)).toEqual([
      'anna.albrecht@demo.local',
      ...legalStaff,
    ]);
  });

  it('sends one reminder when two replicas run at the same moment', async () => {
    const { id } = await record({ notice: '2028-05-02', end: '2028-05-31' });
    const now = noonOf('2028-04-01');
    const results = await Promise.all([replica().run(now), replica().run(now), replica().run(now)]);
    expect(results.reduce((sum, r) => sum + r.reminded, 0)).toBeGreaterThanOrEqual(1);
    expect(await mailsOf(id)).toHaveLength(1 + legalStaff.length);
    expect((await historyOf(id)).map((e) => e.type)).toEqual(['notice_reminder']);
    expect(await webhooksOf(id)).toHaveLength(1);
  });

  it('a run that fails half-way keeps what it committed, and the next run sends only what is missing', async () => {
    const day = '2028-08-01';
    const records = await Promise.all([1, 2, 3].map(() => record({ notice: day, end: '2028-08-31' })));
    // The middle one (by id) cannot be written during the first run, as if its webhook's row broke: the
    // batch is rolled back and written again one contract at a time, and only that one is left over.
    const [before, failing, after] = records.map((r) => r.id).sort();
    let broken = true;
    const webhooks = new WebhookEventSink(PUBLIC_URL);
    const breaking: EventSink<Kysely<Database>> = {
      async record(event, trx) {
        if (event.kind === 'contract.event' && event.contractId === failing && broken)
          throw new Error('connection lost');
        await webhooks.record(event, trx);
      },
    };
    const now = noonOf('2028-07-01');
    await expect(replica(breaking).run(now)).rejects.toThrow(/1 contract reminder\(s\) failed/);
    expect(await mailsOf(before as string)).toHaveLength(1 + legalStaff.length);
    // Rolled back whole: no mail, no history entry, no webhook.
    expect(await mailsOf(failing as string)).toHaveLength(0);
    expect(await historyOf(failing as string)).toHaveLength(0);
    expect(await webhooksOf(failing as string)).toHaveLength(0);
    expect(await mailsOf(after as string)).toHaveLength(1 + legalStaff.length);

    broken = false;
    expect(await replica(breaking).run(now)).toMatchObject({ reminded: 1, failed: 0 });
    await replica().run(noonOf('2028-07-02'));
    for (const id of [before, failing, after] as string[]) {
      expect(await mailsOf(id)).toHaveLength(1 + legalStaff.length);
      expect(await webhooksOf(id)).toHaveLength(1);
    }
  });

  it('a queued reminder goes out once after the mail server was down', async () => {
    const { id } = await record({ notice: '2028-10-02', end: '2028-10-31' });
    const queueing = new MailOutbox(db, t.mailer, 'support@demo.local', quiet);
    const run = new ContractReminders({
      db,
      outbox: queueing,
      settings: new ContractReminderSettings(db, new AuditLog(db)),
      publicUrl: PUBLIC_URL,
    });
    const delivering = new MailOutbox(db, t.mailer, 'support@demo.local', quiet);
    outboxes.push(delivering);
    const received = () => t.mailer.sent.filter((m) => m.text.includes(`/vertraege/${id}`));
    t.mailer.failing = true;
    try {
      await run.run(noonOf('2028-09-01'));
      // The delivery the run started has given up for now.
      await queueing.stop();
      await delivering.deliverDue();
    } finally {
      t.mailer.failing = false;
    }
    expect(received()).toHaveLength(0);
    expect(await run.run(noonOf('2028-09-01'))).toMatchObject({ reminded: 0 });
    // After the outbox's pause (well past its backoff), each mail goes out once.
    await delivering.deliverDue(new Date(Date.now() + 2 * 3600_000));
    await delivering.deliverDue(new Date(Date.now() + 4 * 3600_000));
    expect(
      received()
        .map((m) => m.to)
        .sort(),
    ).toEqual(['anna.albrecht@demo.local', ...legalStaff].sort());
  });

  it('stops reminding once an extension or a termination is signed, and reminds again of a moved deadline', async () => {
    const extended = await record({ notice: '2029-03-01', end: '2029-03-31' });
    await record({
      kind: 'verlaengerung',
      parent: { id: extended.id, relation: 'changes' },
      end: '2029-09-30',
      notice: null,
    });
    const terminated = await record({ notice: '2029-03-01', end: '2029-03-31' });
    const termination = await record({
      kind: 'kuendigung',
      parent: { id: terminated.id, relation: 'ends' },
      notice: null,
      end: null,
    });
    await db
      .updateTable('contract_records')
      .set({ terminated_by: termination.id })
      .where('id', '=', terminated.id)
      .execute();
    // An additional agreement changes the contract but neither extends nor ends it.
    const amended = await record({ notice: '2029-03-01', end: '2029-03-31' });
    await record({
      kind: 'zusatzvereinbarung',
      parent: { id: amended.id, relation: 'changes' },
      notice: '2029-03-01',
      end: '2029-03-31',
    });
    const moved = await record({ notice: '2029-03-01', end: '2029-03-31' });

    const run = replica();
    await run.run(noonOf('2029-02-01'));
    expect(await mailsOf(extended.id)).toHaveLength(0);
    expect(await mailsOf(terminated.id)).toHaveLength(0);
    expect(await mailsOf(amended.id)).toHaveLength(1 + legalStaff.length);
    expect(await mailsOf(moved.id)).toHaveLength(1 + legalStaff.length);

    // Legal corrects the notice rule: the deadline moves, and its reminder comes again.
    await db
      .updateTable('contract_records')
      .set({ last_notice_day: '2029-02-15' })
      .where('id', '=', moved.id)
      .execute();
    await run.run(noonOf('2029-02-01'));
    const mails = await mailsOf(moved.id);
    expect(mails).toHaveLength(2 * (1 + legalStaff.length));
    expect(mails.at(-1)?.subject).toMatch(/^Kündigungsfrist am 15\.02\.2029: /);

    // The extension's own deadlines are reminded of; the extended contract's end is not announced.
    await run.run(noonOf('2029-04-02'));
    expect(await webhooksOf(extended.id)).toEqual([]);
    expect(await webhooksOf(terminated.id)).toEqual([]);
  });

  it('applies the lead times an administrator sets, per company; staff read them, only administrators change them', async () => {
    const put = (token: string, payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: '/backend/contract-reminder-settings',
        headers: bearer(token),
        payload: payload as object,
      });
    const defaults = await t.app.inject({
      method: 'GET',
      url: '/backend/contract-reminder-settings',
      headers: bearer(legalToken),
    });
    expect(defaults.json()).toEqual([
      { company: 'wm', label: 'WM', noticeDays: 60, endDays: 14, changedBy: null, changedAt: null },
      { company: 'we', label: 'WE', noticeDays: 60, endDays: 14, changedBy: null, changedAt: null },
      { company: 'wp', label: 'WP', noticeDays: 60, endDays: 14, changedBy: null, changedAt: null },
    ]);
    expect(
      (await put(legalToken, { settings: [{ company: 'wm', noticeDays: 30, endDays: 7 }] })).statusCode,
    ).toBe(403);
    const invalid = await put(admin, { settings: [{ company: 'wm', noticeDays: 0, endDays: 400 }] });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      error: 'invalid_input',
      fields: {
        'settings.0.noticeDays': [
          'Die Erinnerung vor der Kündigungsfrist braucht mindestens einen Tag Vorlauf.',
        ],
        'settings.0.endDays': ['Höchstens 365 Tage vor dem Vertragsende.'],
      },
    });
    const changed = await put(admin, { settings: [{ company: 'wm', noticeDays: 30, endDays: 7 }] });
    expect(changed.statusCode, changed.body).toBe(200);
    const wm = (changed.json() as ContractReminderSetting[]).find((s) => s.company === 'wm');
    expect(wm).toMatchObject({ noticeDays: 30, endDays: 7, changedBy: 'ops@demo.local' });
    const audit = await db
      .selectFrom('audit_entries')
      .select(['action', 'subject', 'old_value', 'new_value'])
      .where('action', '=', 'contract.reminder-settings')
      .execute();
    expect(audit).toEqual([
      {
        action: 'contract.reminder-settings',
        subject: 'WM',
        old_value: '60 Tage vor der Kündigungsfrist, 14 Tage vor dem Vertragsende',
        new_value: '30 Tage vor der Kündigungsfrist, 7 Tage vor dem Vertragsende',
      },
    ]);

    const notice = '2030-06-03';
    const wmRecord = await record({ company: 'wm', notice, end: '2030-06-30' });
    const weRecord = await record({ company: 'we', notice, end: '2030-06-30' });
    const run = replica();
    // 45 days before: WE's 60 days have begun, WM's 30 not.
    await run.run(noonOf(addDaysIso(notice, -45)));
    expect(await mailsOf(weRecord.id)).toHaveLength(1 + legalStaff.length);
    expect(await mailsOf(wmRecord.id)).toHaveLength(0);
    await run.run(noonOf(addDaysIso(notice, -30)));
    expect(await mailsOf(wmRecord.id)).toHaveLength(1 + legalStaff.length);
    // 8 days before WM's end: not yet; 7: its reminder.
    await run.run(noonOf('2030-06-22'));
    expect(await mailsOf(wmRecord.id)).toHaveLength(1 + legalStaff.length);
    await run.run(noonOf('2030-06-23'));
    expect(await mailsOf(wmRecord.id)).toHaveLength(2 * (1 + legalStaff.length));
  });
});
