import type { AddressInfo } from 'node:net';
import type { EnvelopeView } from '@vertragsgenerator/domain';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MailOutbox } from '../mail/mail-outbox.js';
import { createSmtpMailer } from '../mail/smtp-mailer.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { demoMatch as match } from '../test/demo-order.js';
import { eventually } from '../test/eventually.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const SUPPORT_EMAIL = 'it-support@firma.example';
const quiet = { warn() {} };

interface Received {
  from: string;
  to: string[];
  subject: string;
}

/**
 * A mail server on loopback that refuses mail the way real ones do when they cannot take it for
 * now: 451 (temporary) for every recipient, or after the message was transmitted, until told to accept.
 */
async function startMailServer() {
  const received: Received[] = [];
  let refusal: 'recipient' | 'data' | undefined = 'recipient';
  const temporaryFailure = () =>
    Object.assign(new Error('Requested action aborted: try again later'), { responseCode: 451 });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(refusal === 'recipient' ? temporaryFailure() : null);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusal === 'data') return callback(temporaryFailure());
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: subjectOf(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse(at: 'recipient' | 'data') {
      refusal = at;
    },
    accept() {
      refusal = undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The Subject header of a raw message with ASCII subjects, long lines unfolded (RFC 5322 §2.2.3). */
function subjectOf(raw: string): string {
  const head = raw.split('\r\n\r\n', 1)[0] ?? '';
  return /^Subject: (.*)$/im.exec(head.replace(/\r\n[ \t]/g, ' '))?.[1] ?? '';
}

/**
 * The mail server refuses mail for a while (SMTP_URL set): support reports and signing
 * invitations wait in `outgoing_mail` and go out once it accepts again. Nothing is lost.
 */
describe.each(testDatabases())('mail delivery failing on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  /** The app's outbox, driven by the test instead of its 30 s timer, on a clock of the test's own. */
  let outbox: MailOutbox;
  let legal: string;

  beforeAll(async () => {
    smtp = await startMailServer();
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    const env = { SMTP_URL: smtp.url, SUPPORT_EMAIL, MAIL_FROM: 'vertragsgenerator@firma.example' };
    const { mail } = loadConfig(env, '0');
    const mailer = createSmtpMailer(mail.smtpUrl ?? '', mail.from);
    t = await createTestApp(db, { env, mailer, demoStaff: true });
    outbox = new MailOutbox(db, mailer, mail.supportEmail, quiet);
    legal = await t.signIn('legal@demo.local');
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
    await smtp.close();
  });

  const queued = (reference: string) =>
    db
      .selectFrom('outgoing_mail')
      .select(['recipient', 'subject', 'attempts', 'sent_at', 'last_error'])
      .where('reference', '=', reference)
      .execute();

  /** Waits (bounded) until the app's own immediate delivery attempt has been refused. */
  const firstAttemptRefused = (reference: string) =>
    eventually(`a refused delivery attempt for ${reference}`, async () => {
      const rows = await queued(reference);
      return rows.length > 0 && rows.every((row) => row.last_error !== null) ? rows : undefined;
    });

  /** Backoff pauses are minutes long: the test moves the outbox's clock instead of waiting. */
  const hoursLater = (hours: number) => new Date(Date.now() + hours * 3600_000);

  it('keeps a problem report queued while the mail server refuses, and mails it once it accepts', async () => {
    smtp.refuse('recipient');
    const response = await t.app.inject({
      method: 'POST',
      url: '/backend/sendSupportEmail',
      headers: bearer(legal),
      payload: { subject: 'Mailserver-Test', msgBody: 'Kommt das an?' },
    });
    // The user's report is stored: the failing mail server is the outbox's problem, not theirs.
    expect(response.statusCode).toBe(200);
    const reference = `support_report:${response.json().id}`;

    const [refused] = await firstAttemptRefused(reference);
    expect(refused).toMatchObject({ recipient: null, sent_at: null, attempts: 1 });
    expect(refused?.last_error).toMatch(/451|rejected/);
    expect(await outbox.deliverDue(hoursLater(1))).toBe(0);
    expect((await queued(reference))[0]).toMatchObject({ sent_at: null, attempts: 2 });
    expect(smtp.received).toEqual([]);

    smtp.accept();
    // Not due now: the second refusal set the next attempt a backoff after its own (moved) clock.
    expect(await outbox.deliverDue()).toBe(0);
    expect(await outbox.deliverDue(hoursLater(2))).toBe(1);
    expect((await queued(reference))[0]?.sent_at).toBeInstanceOf(Date);
    expect(smtp.received).toEqual([
      {
        from: 'vertragsgenerator@firma.example',
        to: [SUPPORT_EMAIL],
        subject: '[Vertragsgenerator] Problem gemeldet: Mailserver-Test',
      },
    ]);
    // Sent once: a later run finds nothing left.
    expect(await outbox.deliverDue(hoursLater(3))).toBe(0);
    expect(smtp.received).toHaveLength(1);
  });

  it('keeps signing invitations queued while the mail server refuses the message, and sends them later', async () => {
    smtp.received.length = 0;
    smtp.refuse('data');
    const created = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/de-wm-k-rv-1/${match.matchId}`,
      headers: bearer(legal),
      payload: {
        dataList: {
          Absender_UserName: 'Lena Legal',
          Absender_Email: 'legal@demo.local',
          Kunde_UserName: 'Klara Kunde',
          Kunde_Email: 'klara@kunde.example',
          vertragspartner_type: 'k',
        },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = (created.json().data as string).split('/').pop() as string;
    const draft: EnvelopeView = (
      await t.app.inject({ method: 'GET', url: `/backend/signature/envelopes/${id}`, headers: bearer(legal) })
    ).json();
    const sent = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/send`,
      headers: bearer(legal),
      payload: {
        subject: 'Bitte unterschreiben: Rahmenvertrag',
        message: '',
        recipients: draft.recipients.map(({ role, name, email, routingOrder }) => ({
          role,
          name,
          email,
          routingOrder,
        })),
      },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const reference = `envelope:${id}`;

    const refused = await firstAttemptRefused(reference);
    expect(refused).toMatchObject([{ recipient: 'klara@kunde.example', sent_at: null }]);
    expect(smtp.received).toEqual([]);

    smtp.accept();
    expect(await outbox.deliverDue(hoursLater(1))).toBe(1);
    expect(smtp.received).toEqual([
      {
        from: 'vertragsgenerator@firma.example',
        to: ['klara@kunde.example'],
        subject: 'Bitte unterschreiben: Rahmenvertrag',
      },
    ]);
    expect((await queued(reference))[0]?.sent_at).toBeInstanceOf(Date);
  });
});
