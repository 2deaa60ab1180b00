import { join } from 'node:path';
import type { EnvelopeView, ResolvedMatch, SigningView } from '@vertragsgenerator/domain';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { richestDemoMatch } from '../templates/samples.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { signWithLink } from '../test/partner-envelope.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

/**
 * SIGNING_OTP: `required` (the default) asks every signer for a code, `optional` lets the sender
 * switch it off per envelope, `off` asks nobody. Plus what the code leaves behind: the certificate
 * names it beside the signature, and no log line holds it.
 */

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
let partners = 0;

interface ModeApp {
  t: TestApp;
  berater: string;
  logs: string[];
}

describe('SIGNING_OTP', () => {
  let db: Db;
  const apps: Record<'required' | 'optional' | 'off', ModeApp> = {} as never;

  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
    await new MatchStore(db).upsertMany([match]);
    for (const mode of ['required', 'optional', 'off'] as const) {
      const logs: string[] = [];
      // Every line the server logs, at its most talkative.
      const logger = { level: 'trace', stream: { write: (line: string) => logs.push(line) } };
      const t = await createTestApp(db, {
        demoStaff: true,
        logger,
        env: mode === 'required' ? {} : { SIGNING_OTP: mode },
      });
      apps[mode] = { t, berater: await t.signIn('berater@demo.local'), logs };
    }
  });
  afterAll(async () => {
    for (const { t } of Object.values(apps)) await t.app.close();
    await db.destroy();
  });

  /** Berta's partner envelope: the draft as the sender view shows it, and a send with `signerCode`. */
  async function draft({ t, berater }: ModeApp) {
    partners += 1;
    const email = `pina.${partners}@partner.example`;
    const created = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/de-we-pp-ev/${match.matchId}`,
      headers: bearer(berater),
      payload: {
        dataList: {
          Absender_UserName: 'Berta Berater',
          Absender_Email: 'berater@demo.local',
          Projektpartner_UserName: 'Pina Partner',
          Projektpartner_Email: email,
          vertragspartner_type: 'pp',
        },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = (created.json().data as string).split('/').pop() as string;
    const view = async (): Promise<EnvelopeView> =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/backend/signature/envelopes/${id}`,
          headers: bearer(berater),
        })
      ).json();
    const drafted = await view();
    const send = (signerCode?: boolean) =>
      t.app.inject({
        method: 'POST',
        url: `/backend/signature/envelopes/${id}/send`,
        headers: bearer(berater),
        payload: {
          subject: drafted.subject,
          message: 'Bitte unterschreiben.',
          recipients: drafted.recipients.map(({ role, name, email, routingOrder }) => ({
            role,
            name,
            email,
            routingOrder,
          })),
          ...(signerCode === undefined ? {} : { signerCode }),
        },
      });
    return { id, email, drafted, view, send };
  }

  const opened = async ({ t }: ModeApp, link: string): Promise<SigningView> =>
    (
      await t.app.inject({ method: 'GET', url: '/backend/signing', headers: { 'x-signing-token': link } })
    ).json();

  const documentStatus = async ({ t }: ModeApp, link: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/backend/signing/document',
        headers: { 'x-signing-token': link },
      })
    ).statusCode;

  it('required: every signer is asked, and the sender cannot switch it off', async () => {
    const app = apps.required;
    const envelope = await draft(app);
    expect(envelope.drafted.signerCode).toEqual({ enabled: true, changeable: false });
    const refused = await envelope.send(false);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'invalid_input',
      fields: { signerCode: ['Der Bestätigungscode per E-Mail ist für alle Unterzeichner vorgeschrieben.'] },
    });
    expect((await envelope.view()).status).toBe('created');
    const sent = await envelope.send(true);
    expect(sent.statusCode, sent.body).toBe(200);
    expect((sent.json() as EnvelopeView).signerCode).toEqual({ enabled: true, changeable: false });
    const link = await app.t.mailer.signingLink(envelope.email);
    expect((await opened(app, link)).verification.required).toBe(true);
    expect(await documentStatus(app, link)).toBe(403);
  });

  it('optional: the sender chooses per envelope; asked unless switched off', async () => {
    const app = apps.optional;
    const withCode = await draft(app);
    expect(withCode.drafted.signerCode).toEqual({ enabled: true, changeable: true });
    expect((await withCode.send()).statusCode).toBe(200);
    expect((await withCode.view()).signerCode).toEqual({ enabled: true, changeable: false });
    const codeLink = await app.t.mailer.signingLink(withCode.email);
    expect((await opened(app, codeLink)).verification.required).toBe(true);
    expect(await documentStatus(app, codeLink)).toBe(403);

    const without = await draft(app);
    expect((await without.send(false)).statusCode).toBe(200);
    expect((await without.view()).signerCode).toEqual({ enabled: false, changeable: false });
    const link = await app.t.mailer.signingLink(without.email);
    const view = await opened(app, link);
    expect(view.verification).toMatchObject({ required: false, verified: false });
    // Without a code the signer sees what they always saw.
    expect(view.signer.email).toBe(without.email);
    expect(view.message).toBe('Bitte unterschreiben.');
    expect(await documentStatus(app, link)).toBe(200);
    await signWithLink(app.t, link, 'Pina Partner');
    expect(app.t.mailer.signingCodeMails(without.email)).toEqual([]);
  });

  it('off: nobody is asked, whatever the sender sends, and no code is mailed', async () => {
    const app = apps.off;
    const envelope = await draft(app);
    expect(envelope.drafted.signerCode).toEqual({ enabled: false, changeable: false });
    expect((await envelope.send(true)).statusCode).toBe(200);
    const link = await app.t.mailer.signingLink(envelope.email);
    expect((await opened(app, link)).verification.required).toBe(false);
    const asked = await app.t.app.inject({
      method: 'POST',
      url: '/backend/signing/code',
      headers: { 'x-signing-token': link },
    });
    expect(asked.statusCode).toBe(200);
    expect(await documentStatus(app, link)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(app.t.mailer.signingCodeMails(envelope.email)).toEqual([]);
  });

  it('names the confirmed code beside the signature on the certificate, and logs no code', async () => {
    const app = apps.required;
    const envelope = await draft(app);
    expect((await envelope.send()).statusCode).toBe(200);
    const link = await app.t.mailer.signingLink(envelope.email);
    await signWithLink(app.t, link, 'Pina Partner');
    const [codeMail] = app.t.mailer.signingCodeMails(envelope.email);
    const code = codeMail?.text.match(/^\s*(\d{6})\s*$/m)?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const certificate = await app.t.app.inject({
      method: 'GET',
      url: `/backend/signature/envelopes/${envelope.id}/certificate`,
      headers: bearer(app.berater),
    });
    expect(certificate.statusCode).toBe(200);
    const text = (await pdfText(certificate.rawPayload)).replace(/\s+/g, ' ');
    const identity = text.slice(text.indexOf('Identität bestätigt'));
    expect(identity).toMatch(
      /^Identität bestätigt per E-Mail-Code an \S+ am \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2} \(Europe\/Berlin\) von IP 127\.0\.0\.1/,
    );
    expect(identity).toContain(`an ${envelope.email} am`);

    // The server logged the requests (at trace level, with their answers) but never the code.
    expect(app.logs.some((line) => line.includes('/backend/signing/verify'))).toBe(true);
    const values = app.logs.flatMap((line) => stringsIn(JSON.parse(line)));
    expect(values.filter((value) => new RegExp(`(?<![0-9])${code}(?![0-9])`).test(value))).toEqual([]);
  });
});

/** Every string value in a log line, however deep: numbers such as times are no place for a code. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

async function pdfText(pdf: Uint8Array): Promise<string> {
  // pdf.js takes ownership of the buffer it is given.
  const document = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await document.destroy();
  return pages.join('\n');
}
