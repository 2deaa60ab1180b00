import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/database.js';
import { createFileMailer } from '../mail/file-mailer.js';
import { MailOutbox } from '../mail/mail-outbox.js';
import { SupportReports } from '../support/support-reports.js';
import { testDatabases } from '../test/databases.js';
import { bearer, createTestApp, RecordingMailer, type TestApp } from '../test/test-app.js';

const quiet = { warn() {} };

describe.each(testDatabases())('problem reports on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { env: { SUPPORT_EMAIL: 'it-support@firma.example' } });
    await t.users.upsert({ email: 'berater@demo.local', name: 'Berta Berater', permission: 1 });
    token = await t.signIn('berater@demo.local');
  });
  beforeEach(() => {
    t.mailer.failing = false;
    t.mailer.sent.length = 0;
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const report = (payload: object, auth = token) =>
    t.app.inject({ method: 'POST', url: '/backend/sendSupportEmail', headers: bearer(auth), payload });

  async function waitForMail(count: number) {
    for (let i = 0; i < 100 && t.mailer.sent.length < count; i++) await new Promise((r) => setTimeout(r, 20));
  }

  it('stores the report with the reporter from the token and mails it to support', async () => {
    const response = await report({
      subject: 'Falscher Stundensatz',
      msgBody: 'Der VK ist zu niedrig & <falsch>.',
      matchId: 'PL-10001',
      userEmail: 'chef@evil.example',
      userName: 'Jemand Anderes',
    });
    expect(response.statusCode).toBe(200);
    const { id } = response.json();
    const row = await db
      .selectFrom('support_reports')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      reporter_email: 'berater@demo.local',
      reporter_name: 'Berta Berater',
      subject: 'Falscher Stundensatz',
      match_id: 'PL-10001',
    });
    await waitForMail(1);
    expect(t.mailer.sent).toHaveLength(1);
    expect(t.mailer.sent[0]).toMatchObject({
      to: 'it-support@firma.example',
      replyTo: 'berater@demo.local',
      subject: '[Vertragsgenerator] Problem gemeldet: Falscher Stundensatz',
    });
    expect(t.mailer.sent[0]?.text).toContain('Der VK ist zu niedrig & <falsch>.');
    expect(t.mailer.sent[0]?.text).toContain('Berta Berater <berater@demo.local>');
    expect(t.mailer.sent[0]?.text).not.toContain('evil');
  });

  it('refuses blank subject or description with 400 naming the field', async () => {
    const response = await report({ subject: '   ', msgBody: '' });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields).sort()).toEqual(['msgBody', 'subject']);
    expect(
      await db.selectFrom('support_reports').select('id').where('subject', '=', '   ').execute(),
    ).toEqual([]);
  });

  it('keeps the report when mail delivery fails and sends it once delivery works', async () => {
    // The app records an earlier report's delivery just after handing it over: only once that is
    // stored is this report's mail the only one the runs below can find due.
    await vi.waitFor(
      async () =>
        expect(
          await db.selectFrom('outgoing_mail').select('id').where('sent_at', 'is', null).execute(),
        ).toEqual([]),
      { timeout: 5_000 },
    );
    t.mailer.failing = true;
    const response = await report({ subject: 'SMTP kaputt', msgBody: 'Bitte trotzdem ankommen.' });
    expect(response.statusCode).toBe(200);
    const { id } = response.json();
    const outbox = new MailOutbox(db, t.mailer, 'it-support@firma.example', quiet);
    await outbox.deliverDue(new Date(Date.now() + 60_000));
    const queued = () =>
      db
        .selectFrom('outgoing_mail')
        .selectAll()
        .where('reference', '=', `support_report:${id}`)
        .executeTakeFirstOrThrow();
    // The app's own delivery right after the report may hold the lease: wait until its failure is recorded.
    const failed = await vi.waitFor(
      async () => {
        const mail = await queued();
        expect(mail.last_error).toContain('ECONNREFUSED');
        return mail;
      },
      { timeout: 5_000 },
    );
    expect(failed.sent_at).toBeNull();
    expect(failed.attempts).toBeGreaterThanOrEqual(1);

    t.mailer.failing = false;
    expect(await outbox.deliverDue(new Date(Date.now() + 2 * 3600_000))).toBe(1);
    expect((await queued()).sent_at).not.toBeNull();
    expect(t.mailer.sent).toMatchObject([
      { to: 'it-support@firma.example', subject: '[Vertragsgenerator] Problem gemeldet: SMTP kaputt' },
    ]);
    expect(await outbox.deliverDue(new Date(Date.now() + 4 * 3600_000))).toBe(0);
  });

  it('never sends a message twice when two processes deliver at once', async () => {
    const a = new RecordingMailer();
    const b = new RecordingMailer();
    // Held back so that both outboxes below find the two reports due at the same time.
    const holding = new RecordingMailer();
    holding.failing = true;
    const held = new MailOutbox(db, holding, 's@x.de', quiet);
    const reports = new SupportReports(db, held);
    const reporter = { email: 'berater@demo.local', name: 'Berta Berater' };
    await reports.submit({ subject: 'Doppelt?', msgBody: 'Nur einmal bitte.' }, reporter);
    await reports.submit({ subject: 'Zweite', msgBody: 'Auch nur einmal.' }, reporter);
    // Its own attempts (each submit starts one) end first: the two below run on a clock a day ahead, on
    // which its lease has already run out, and its giving a message back meanwhile would let both take it.
    await held.stop();
    const later = new Date(Date.now() + 24 * 3600_000);
    await Promise.all([
      new MailOutbox(db, a, 's@x.de', quiet).deliverDue(later),
      new MailOutbox(db, b, 's@x.de', quiet).deliverDue(later),
    ]);
    const subjects = [...a.sent, ...b.sent].map((m) => m.subject);
    expect(subjects.filter((s) => s.endsWith('Doppelt?'))).toHaveLength(1);
    expect(subjects.filter((s) => s.endsWith('Zweite'))).toHaveLength(1);
  });
});

describe('file mailer (embedded default)', () => {
  it('writes each message as an .eml file', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'vg-mail-')), 'mail');
    await createFileMailer(dir, 'Vertragsgenerator <noreply@demo.local>').send({
      to: 'support@demo.local',
      subject: 'Umlaute: äöü ß',
      text: 'Hallo & tschüss',
    });
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = readFileSync(join(dir, files[0] ?? ''), 'utf8');
    expect(eml).toMatch(/^To: support@demo\.local$/m);
    expect(eml).toMatch(/^From: Vertragsgenerator <noreply@demo\.local>$/m);
    expect(eml).toContain('Subject: =?UTF-8?');
  });

  it('attaches files, so completed envelopes carry document and certificate', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'vg-mail-')), 'mail');
    await createFileMailer(dir, 'Vertragsgenerator <noreply@demo.local>').send({
      to: 'klara@kunde.example',
      subject: 'Abgeschlossen',
      text: 'Im Anhang.',
      attachments: [
        { filename: 'Zertifikat.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.7') },
      ],
    });
    const eml = readFileSync(join(dir, readdirSync(dir)[0] ?? ''), 'utf8');
    expect(eml).toMatch(/Content-Type: application\/pdf; name=Zertifikat\.pdf/);
    expect(eml).toContain(Buffer.from('%PDF-1.7').toString('base64'));
  });
});
