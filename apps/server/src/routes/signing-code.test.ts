import { join } from 'node:path';
import type { EnvelopeView, ResolvedMatch, SigningView } from '@vertragsgenerator/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { sha256Hex } from '../shared/sha256.js';
import { richestDemoMatch } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import { sentPartnerEnvelope } from '../test/partner-envelope.js';
import { bearer, codeInMail, createTestApp, type TestApp } from '../test/test-app.js';

/**
 * The code step of built-in signing (SIGNING_OTP=required, the default): before the document opens, the
 * signer confirms a code mailed to the address the envelope names. The clock is Date alone, faked where a
 * test needs time to pass; the database and the outbox keep real time.
 */

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const MINUTE = 60_000;
const USER_AGENT = 'Codebrowser/2.0';

describe.each(testDatabases())('the signing code on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let berater: string;
  let partnerNumber = 0;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, { demoStaff: true });
    berater = await t.signIn('berater@demo.local');
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  /** A partner envelope sent to a partner of its own; answers the link and the partner's address. */
  async function sentEnvelope() {
    partnerNumber += 1;
    const partner = { name: 'Pia Partner', email: `pia.${partnerNumber}@partner.example` };
    const sent = await sentPartnerEnvelope(t, { token: berater, matchId: match.matchId, partner });
    return { ...sent, email: partner.email };
  }

  const signer = (method: 'GET' | 'POST', path: string, link: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/backend/signing${path}`,
      headers: { 'x-signing-token': link, 'user-agent': USER_AGENT },
      remoteAddress: '198.51.100.42',
      ...(payload ? { payload } : {}),
    });

  /** Asks for a code for `link` and reads it from the mail to `email`. */
  async function mailedCode(link: string, email: string): Promise<string> {
    const before = t.mailer.signingCodeMails(email).length;
    const asked = await signer('POST', '/code', link);
    expect(asked.statusCode, asked.body).toBe(200);
    return t.mailer.signingCode(email, before);
  }

  const enter = (link: string, code: string) => signer('POST', '/verify', link, { code });

  /** A code of six digits that is not `code`. */
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  /** Starts the faked clock at the real time: only Date moves, when the test says so. */
  function fakeClock(): (ms: number) => void {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    return (ms) => vi.setSystemTime(Date.now() + ms);
  }

  const events = async (id: string) =>
    (
      (
        await t.app.inject({
          method: 'GET',
          url: `/backend/signature/envelopes/${id}`,
          headers: bearer(berater),
        })
      ).json() as EnvelopeView
    ).events;

  it('keeps the document, signing and declining closed until the code is confirmed', async () => {
    const { link } = await sentEnvelope();
    const view: SigningView = (await signer('GET', '', link)).json();
    expect(view.verification).toEqual({
      required: true,
      verified: false,
      email: 'p***@partner.example',
      codeSent: false,
      resendInSeconds: 0,
      lockedUntil: null,
    });
    // Whoever holds the link learns neither the address nor the message before the code.
    expect(view.signer.email).toBe('p***@partner.example');
    expect(view.documentSha256).toMatch(/^[0-9a-f]{64}$/);

    for (const [method, path, payload] of [
      ['GET', '/document', undefined],
      ['GET', '/document.pdf', undefined],
      ['POST', '/sign', { consent: true, typedName: 'Pia Partner' }],
      ['POST', '/decline', { reason: 'Der Tagessatz stimmt nicht.' }],
    ] as const) {
      const refused = await signer(method, path, link, payload);
      expect(refused.statusCode, `${method} ${path}`).toBe(403);
      expect(refused.json()).toEqual({
        error: 'verification_required',
        message: 'Bitte bestätige zuerst den Code, den wir dir per E-Mail geschickt haben.',
      });
    }
    expect((await signer('GET', '', link)).json().state).toBe('open');
  });

  it('opens the document with the right code, recorded as an event with address and browser', async () => {
    const { id, link, email } = await sentEnvelope();
    const code = await mailedCode(link, email);
    const [mail] = t.mailer.signingCodeMails(email);
    expect(mail?.subject).not.toContain(code);
    expect(mail?.subject).toMatch(/^Dein Bestätigungscode für „/);
    expect(mail?.replyTo).toBe('berater@demo.local');
    expect(mail?.text).toContain('Er gilt 10 Minuten');

    const confirmed = await enter(link, code);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const view: SigningView = confirmed.json();
    expect(view.verification).toMatchObject({ required: true, verified: true });
    expect(view.signer.email).toBe(email);
    const document = await signer('GET', '/document', link);
    expect(document.statusCode).toBe(200);
    expect(sha256Hex(document.rawPayload)).toBe(view.documentSha256);

    const verified = (await events(id)).filter((e) => e.type === 'verified');
    expect(verified).toEqual([
      {
        type: 'verified',
        at: expect.any(String),
        actor: email,
        ip: '198.51.100.42',
        userAgent: USER_AGENT,
        detail: `Code an ${email} bestätigt`,
      },
    ]);
    // Entering it again changes nothing and records nothing.
    expect((await enter(link, code)).statusCode).toBe(200);
    expect((await events(id)).filter((e) => e.type === 'verified')).toHaveLength(1);
  });

  it('refuses a wrong code, counting down the tries left', async () => {
    const { link, email } = await sentEnvelope();
    const code = await mailedCode(link, email);
    const refused = await enter(link, wrong(code));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: 'code_wrong',
      message: 'Der Code stimmt nicht. Du hast noch 4 Versuche.',
    });
    expect((await enter(link, wrong(code))).json().message).toBe(
      'Der Code stimmt nicht. Du hast noch 3 Versuche.',
    );
    expect((await signer('GET', '/document', link)).statusCode).toBe(403);
    expect((await enter(link, code)).statusCode).toBe(200);
  });

  it('refuses a code that is not six digits without counting it', async () => {
    const { link, email } = await sentEnvelope();
    const code = await mailedCode(link, email);
    for (const given of ['12345', '1234567', 'abcdef', '', `${code.slice(0, 3)} ${code.slice(3)}`]) {
      const refused = await enter(link, given);
      expect(refused.statusCode, given).toBe(400);
      expect(refused.json()).toMatchObject({
        error: 'invalid_input',
        fields: { code: ['Bitte gib den 6-stelligen Code aus der E-Mail ein.'] },
      });
    }
    expect((await enter(link, wrong(code))).json().message).toMatch(/noch 4 Versuche/);
  });

  it('asks for a code first, and lets a code expire after 10 minutes', async () => {
    const { link, email } = await sentEnvelope();
    const first = await enter(link, '123456');
    expect(first.statusCode).toBe(400);
    expect(first.json()).toEqual({ error: 'code_expired', message: 'Bitte fordere zuerst einen Code an.' });

    const advance = fakeClock();
    const code = await mailedCode(link, email);
    advance(10 * MINUTE - 1000);
    expect((await signer('GET', '', link)).json().verification.codeSent).toBe(true);
    advance(1000);
    expect((await signer('GET', '', link)).json().verification.codeSent).toBe(false);
    const expired = await enter(link, code);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({
      error: 'code_expired',
      message: 'Dieser Code gilt nicht mehr. Bitte fordere einen neuen Code an.',
    });
    const fresh = await mailedCode(link, email);
    expect((await enter(link, fresh)).statusCode).toBe(200);
  });

  it('sends a new code only after 60 seconds, and the new one replaces the old', async () => {
    const { link, email } = await sentEnvelope();
    const advance = fakeClock();
    const first = await mailedCode(link, email);
    advance(59_000);
    const early = await signer('POST', '/code', link);
    expect(early.statusCode).toBe(429);
    expect(early.json()).toEqual({
      error: 'code_resend_too_early',
      message: 'Einen neuen Code kannst du in 1 Sekunde anfordern.',
    });
    expect((await signer('GET', '', link)).json().verification).toMatchObject({
      codeSent: true,
      resendInSeconds: 1,
    });
    advance(1000);
    const second = await mailedCode(link, email);
    expect(t.mailer.signingCodeMails(email)).toHaveLength(2);
    const old = await enter(link, first);
    // Six random digits may repeat; a repeated code is the new one.
    if (first !== second) expect(old.json().error).toBe('code_wrong');
    expect((await enter(link, second)).statusCode).toBe(200);
    // Confirmed: no further code is mailed.
    advance(MINUTE);
    expect((await signer('POST', '/code', link)).statusCode).toBe(200);
    expect(t.mailer.signingCodeMails(email)).toHaveLength(2);
  });

  it('locks the link for 15 minutes after 5 wrong codes, with the time it opens again', async () => {
    const { id, link, email } = await sentEnvelope();
    const advance = fakeClock();
    const code = await mailedCode(link, email);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof enter>> | undefined;
    for (let i = 0; i < 5; i++) {
      last = await enter(link, wrong(code));
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    const until = new Date(Date.now() + 15 * MINUTE);
    const time = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
    }).format(until);
    const locked = {
      error: 'verification_locked',
      message: `Zu viele falsche Codes. Der Link ist bis ${time} Uhr gesperrt.`,
    };
    expect(last?.json()).toEqual(locked);
    // Locked: even the right code and a new code are refused, and the view says until when.
    expect((await enter(link, code)).json()).toEqual(locked);
    advance(2 * MINUTE);
    expect((await signer('POST', '/code', link)).json()).toEqual(locked);
    expect((await signer('GET', '', link)).json().verification.lockedUntil).toBe(until.toISOString());
    expect((await events(id)).filter((e) => e.type === 'verification_locked')).toHaveLength(1);

    advance(13 * MINUTE - 1000);
    expect((await enter(link, code)).statusCode).toBe(429);
    advance(1000);
    // The guessed-at code died with the lock: the signer asks for a new one.
    expect((await enter(link, code)).json().error).toBe('code_expired');
    const fresh = await mailedCode(link, email);
    expect((await enter(link, fresh)).statusCode).toBe(200);
  });

  it('does not let one envelope’s code open another’s', async () => {
    const first = await sentEnvelope();
    const second = await sentEnvelope();
    const firstCode = await mailedCode(first.link, first.email);
    const secondCode = await mailedCode(second.link, second.email);
    if (firstCode !== secondCode) {
      expect((await enter(second.link, firstCode)).json().error).toBe('code_wrong');
      expect((await enter(first.link, secondCode)).json().error).toBe('code_wrong');
    }
    expect((await enter(first.link, firstCode)).statusCode).toBe(200);
    expect((await signer('GET', '/document', first.link)).statusCode).toBe(200);
    expect((await signer('GET', '/document', second.link)).statusCode).toBe(403);
    // The same digits for two records still make two different records.
    const hmacs = await db
      .selectFrom('signer_codes')
      .select('code_hmac')
      .where('recipient_id', '=', second.recipientId)
      .executeTakeFirstOrThrow();
    expect(hmacs.code_hmac).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps the code only as an HMAC, and a renewed link asks again', async () => {
    const { id, recipientId, link, email } = await sentEnvelope();
    const code = await mailedCode(link, email);
    const row = await db
      .selectFrom('signer_codes')
      .selectAll()
      .where('recipient_id', '=', recipientId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.code_hmac).not.toBe(sha256Hex(code));
    expect(row.code_hmac).not.toBe(sha256Hex(`${recipientId}:${code}`));
    expect((await enter(link, code)).statusCode).toBe(200);

    const renewed = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/recipients/${recipientId}/renew-link`,
      headers: bearer(berater),
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh = await t.mailer.signingLink(email);
    expect(fresh).not.toBe(link);
    const view: SigningView = (await signer('GET', '', fresh)).json();
    expect(view.verification).toMatchObject({ required: true, verified: false });
    expect((await signer('GET', '/document', fresh)).statusCode).toBe(403);
  });

  it('never answers the code', async () => {
    const { link, email } = await sentEnvelope();
    const answers: string[] = [];
    const asked = await signer('POST', '/code', link);
    answers.push(asked.body);
    const code = await t.mailer.signingCode(email);
    answers.push((await enter(link, wrong(code))).body, (await signer('GET', '', link)).body);
    answers.push((await enter(link, code)).body, (await signer('GET', '', link)).body);
    for (const answer of answers) {
      // The document's hash is hex and could hold any six digits by chance.
      const { documentSha256: _hash, ...rest } = JSON.parse(answer);
      expect(JSON.stringify(rest)).not.toMatch(new RegExp(`(?<![0-9])${code}(?![0-9])`));
    }
    expect(codeInMail(t.mailer.signingCodeMails(email)[0]?.text ?? '')).toBe(code);
  });
});
