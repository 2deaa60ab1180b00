import { join } from 'node:path';
import type { EnvelopeView, ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { MailOutbox } from '../../mail/mail-outbox.js';
import { MatchStore } from '../../matches/match-store.js';
import { richestDemoMatch } from '../../templates/samples.js';
import { testDatabases } from '../../test/databases.js';
import { eventually } from '../../test/eventually.js';
import { sentPartnerEnvelope, signWithLink } from '../../test/partner-envelope.js';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.js';
import { EnvelopesRepository } from '../envelopes-repository.js';
import { loadSigningLinkKey, SigningLinks } from '../signing-links.js';
import { SigningReminders } from './signing-reminders.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const DAY = 24 * 3600_000;
const quiet = { warn() {}, error() {}, info() {} };
/** Each envelope its own partner address: mail of an earlier test may still arrive meanwhile. */
let envelopes = 0;

describe.each(testDatabases())('reminding signers on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let berater: string;
  let legal: string;
  let colleague: string;
  let key: Buffer;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, { demoStaff: true });
    berater = await t.signIn('berater@demo.local');
    legal = await t.signIn('legal@demo.local');
    colleague = await t.signIn('anna.albrecht@demo.local');
    key = await loadSigningLinkKey(db);
  });
  beforeEach(() => {
    t.mailer.sent.length = 0;
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  /** The reminders as a replica runs them, on a clock the test sets; their mail goes to the app's recorder. */
  function remindersAt(clock: { now: Date }) {
    const envelopes = new EnvelopesRepository(db);
    const outbox = new MailOutbox(db, t.mailer, 'support@demo.local', quiet);
    const now = () => clock.now;
    const links = new SigningLinks({
      envelopes,
      publicUrl: 'http://localhost:3000',
      linkValidDays: 14,
      reminderEveryDays: 3,
      key,
      now,
    });
    const reminders = new SigningReminders({ db, envelopes, outbox, links, reminderEveryDays: 3, now });
    return {
      /** Runs the due reminders and delivers their mail; answers how many were sent. */
      async run(): Promise<number> {
        const sent = await reminders.sendDue();
        // The delivery that sending the reminders starts (deliverSoon) may hold a reminder's lease: wait
        // until every reminder is out, whoever delivers it.
        await eventually('every reminder delivered', async () => {
          await outbox.deliverDue();
          const unsent = await db
            .selectFrom('outgoing_mail')
            .select('id')
            .where('sent_at', 'is', null)
            .where('subject', 'like', 'Erinnerung:%')
            .execute();
          return unsent.length === 0 ? true : undefined;
        });
        return sent;
      },
      reminders,
    };
  }

  async function sentEnvelope() {
    const email = `rita.${++envelopes}@partner.example`;
    const sent = await sentPartnerEnvelope(t, {
      token: berater,
      matchId: match.matchId,
      partner: { name: 'Rita Reminder', email },
    });
    const { token_expires_at: expiresAt } = await db
      .selectFrom('envelope_recipients')
      .select('token_expires_at')
      .where('id', '=', sent.recipientId)
      .executeTakeFirstOrThrow();
    return { ...sent, email, expiresAt: expiresAt as Date };
  }

  const remindersTo = (email: string) =>
    t.mailer.sent.filter((m) => m.to === email && /^Erinnerung:/.test(m.subject));
  const view = async (id: string): Promise<EnvelopeView> =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/backend/signature/envelopes/${id}`,
        headers: bearer(berater),
      })
    ).json();
  const open = (link: string) =>
    t.app.inject({ method: 'GET', url: '/backend/signing', headers: { 'x-signing-token': link } });

  it('reminds after three days with the link of the invitation, then every three days and a day before expiry, each once', async () => {
    const { id, email, link, expiresAt } = await sentEnvelope();
    const issuedAt = expiresAt.getTime() - 14 * DAY;
    const clock = { now: new Date(issuedAt + 3 * DAY - 60_000) };
    const replica = remindersAt(clock);
    await replica.run();
    expect(remindersTo(email)).toHaveLength(0);

    clock.now = new Date(issuedAt + 3 * DAY + 60_000);
    // Two replicas at the same moment: one reminder.
    const [a, b] = await Promise.all([replica.run(), remindersAt(clock).run()]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    const [first, ...others] = remindersTo(email);
    expect(others).toHaveLength(0);
    expect(first?.text).toContain(`/unterschreiben#${link}`);
    expect(first?.replyTo).toBe('berater@demo.local');
    expect((await open(link)).statusCode).toBe(200);
    await replica.run();
    expect(remindersTo(email)).toHaveLength(1);

    for (const dayOf of [6, 9, 12]) {
      clock.now = new Date(issuedAt + dayOf * DAY + 60_000);
      await replica.run();
    }
    expect(remindersTo(email)).toHaveLength(4);
    clock.now = new Date(issuedAt + 13 * DAY + 60_000);
    await replica.run();
    const last = remindersTo(email).at(-1);
    expect(remindersTo(email)).toHaveLength(5);
    expect(last?.text).toMatch(/Der Link läuft am .* ab/);
    clock.now = new Date(issuedAt + 14 * DAY - 60_000);
    await replica.run();
    expect(remindersTo(email)).toHaveLength(5);

    const events = (await view(id)).events.filter((e) => e.type === 'reminded');
    expect(events).toHaveLength(5);
    expect(events[0]).toMatchObject({
      actor: '',
      detail: expect.stringMatching(/^Automatische Erinnerung an Rita Reminder/),
    });
  });

  it('reminds nobody who signed or whose envelope was withdrawn', async () => {
    const signedOne = await sentEnvelope();
    await signWithLink(t, signedOne.link, 'Rita Reminder');
    const voidedOne = await sentEnvelope();
    const voided = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${voidedOne.id}/void`,
      headers: bearer(berater),
      payload: { reason: 'falscher Partner' },
    });
    expect(voided.statusCode).toBe(200);

    await remindersAt({ now: new Date(voidedOne.expiresAt.getTime() - 2 * DAY) }).run();
    expect(remindersTo(signedOne.email)).toHaveLength(0);
    expect(remindersTo(voidedOne.email)).toHaveLength(0);
    const due = await db
      .selectFrom('envelope_recipients')
      .select('reminder_due_at')
      .where('id', 'in', [signedOne.recipientId, voidedOne.recipientId])
      .execute();
    expect(due.map((r) => r.reminder_due_at)).toEqual([null, null]);
  });

  it('after Link erneuern reminds with the new link; the old one stays dead', async () => {
    const { id, recipientId, email, link } = await sentEnvelope();
    const renewed = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/recipients/${recipientId}/renew-link`,
      headers: bearer(berater),
    });
    expect(renewed.statusCode).toBe(200);
    const newLink = await t.mailer.signingLink(email);
    expect(newLink).not.toBe(link);
    await remindersAt({ now: new Date(Date.now() + 3 * DAY + 60_000) }).run();
    const [reminder] = remindersTo(email);
    expect(reminder?.text).toContain(`/unterschreiben#${newLink}`);
    expect(reminder?.text).not.toContain(link);
  });

  describe('Erinnern', () => {
    const remind = (id: string, recipientId: string, token = berater) =>
      t.app.inject({
        method: 'POST',
        url: `/backend/signature/envelopes/${id}/recipients/${recipientId}/remind`,
        headers: bearer(token),
      });

    it('mails the signer the link they hold now and records who reminded', async () => {
      const { id, recipientId, email, link } = await sentEnvelope();
      const reminded = await remind(id, recipientId);
      expect(reminded.statusCode, reminded.body).toBe(200);
      expect((reminded.json() as EnvelopeView).events.at(-1)).toMatchObject({
        type: 'reminded',
        actor: 'berater@demo.local',
        detail: expect.stringMatching(/^Erinnerung an Rita Reminder/),
      });
      expect(await t.mailer.signingLink(email)).toBe(link);
      expect(remindersTo(email)).toHaveLength(1);
      // The automatic ones count from now: nothing due a day later.
      await remindersAt({ now: new Date(Date.now() + DAY) }).run();
      expect(remindersTo(email)).toHaveLength(1);
    });

    it('is for the creator and legal staff, not for other colleagues', async () => {
      const { id, recipientId, email } = await sentEnvelope();
      const mailsTo = async () =>
        (await db.selectFrom('outgoing_mail').select('id').where('recipient', '=', email).execute()).length;
      expect((await remind(id, recipientId, colleague)).statusCode).toBe(403);
      expect(await mailsTo()).toBe(1);
      expect((await remind(id, recipientId, legal)).statusCode).toBe(200);
      expect(await mailsTo()).toBe(2);
    });

    it('refuses an expired link, a person not in the envelope and a signer who signed, with a German reason', async () => {
      const { id, recipientId } = await sentEnvelope();
      expect((await remind(id, '999999999')).json()).toMatchObject({
        error: 'envelope_closed',
        message: 'Diese Person steht nicht in diesem Umschlag.',
      });
      await db
        .updateTable('envelope_recipients')
        .set({ token_expires_at: new Date(Date.now() - 60_000) })
        .where('id', '=', recipientId)
        .execute();
      const expired = await remind(id, recipientId);
      expect(expired.statusCode).toBe(409);
      expect(expired.json().message).toBe(
        'Der Link von Rita Reminder ist abgelaufen: schicke mit „Link erneuern“ einen neuen.',
      );

      const other = await sentEnvelope();
      await signWithLink(t, other.link, 'Rita Reminder');
      const afterSigning = await remind(other.id, other.recipientId);
      expect(afterSigning.statusCode).toBe(409);
      expect(afterSigning.json().message).toMatch(/nicht mehr offen/);
    });
  });
});
