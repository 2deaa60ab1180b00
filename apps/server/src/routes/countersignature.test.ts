import { join } from 'node:path';
import type { EnvelopeView, ResolvedMatch } from '@vertragsgenerator/domain';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import type { PdfRenditions } from '../documents/pdf-rendition.js';
import { MatchStore } from '../matches/match-store.js';
import { richestDemoMatch } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import { eventually } from '../test/eventually.js';
import { confirmSigningCode, signWithLink } from '../test/partner-envelope.js';
import { pdfPages, pdfsig } from '../test/pdf-tools.js';
import { png } from '../test/png-fixture.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));

const OPS = 'ops@demo.local';
/** WE Engineering's signatory in config/signatories.json (the only one at its mail domain). */
const SABINE = { id: 'sabine-kroll', name: 'Sabine Kroll', email: 'sabine.kroll@we-engineering.example' };
const PARTNER = { name: 'Paul Partner', email: 'paul@partner.example' };

/**
 * The contract page as LibreOffice renders a partner contract's two blocks (our company's and the
 * partner's), with the 1-pt white anchors: a stand-in for LibreOffice, which the test machine may lack.
 */
async function renderedContract(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage();
  const label = (text: string, x: number, y: number) => page.drawText(text, { x, y, size: 11, font });
  const anchor = (text: string, x: number, y: number) =>
    page.drawText(text, { x, y, size: 1, font, color: rgb(1, 1, 1) });
  label('Für den Auftraggeber', 72, 400);
  anchor('/sig_firma/', 72, 340);
  anchor('/dat_firma/', 72, 300);
  label('Für den Auftragnehmer', 320, 400);
  anchor('/sig_pp/', 320, 340);
  anchor('/dat_pp/', 320, 300);
  return pdf.save();
}

describe.each(testDatabases())('countersigning by the company on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let ops: string;
  let legal: string;
  let berater: string;
  let leitung: string;
  let contract: Uint8Array;

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    contract = await renderedContract();
    const pdfRenditions: PdfRenditions = { available: async () => true, render: async () => contract };
    t = await createTestApp(db, { demoStaff: true, pdfRenditions, contractsWithoutCountersignature: false });
    ops = await t.signIn(OPS);
    legal = await t.signIn('legal@demo.local');
    berater = await t.signIn('berater@demo.local');
    leitung = await t.signIn('leitung@demo.local');
  });
  beforeEach(() => {
    t.mailer.sent.length = 0;
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const setting = (token: string, family: string, payload: object) =>
    t.app.inject({
      method: 'PUT',
      url: `/backend/admin/countersignature/${family}`,
      headers: bearer(token),
      payload,
    });

  const view = async (id: string): Promise<EnvelopeView> =>
    (
      await t.app.inject({ method: 'GET', url: `/backend/signature/envelopes/${id}`, headers: bearer(legal) })
    ).json();

  /** A partner contract of WE Engineering, drafted and not sent. */
  async function draft(): Promise<EnvelopeView> {
    const created = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/de-we-pp-ev/${match.matchId}`,
      headers: bearer(legal),
      payload: {
        dataList: {
          Absender_UserName: 'Lena Legal',
          Absender_Email: 'legal@demo.local',
          Projektpartner_UserName: PARTNER.name,
          Projektpartner_Email: PARTNER.email,
          vertragspartner_type: 'pp',
        },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    return view((created.json().data as string).split('/').pop() as string);
  }

  const send = (envelope: EnvelopeView, extra: object = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${envelope.id}/send`,
      headers: bearer(legal),
      payload: {
        subject: envelope.subject,
        message: '',
        recipients: envelope.recipients.map(({ role, name, email, routingOrder }) => ({
          role,
          name,
          email,
          routingOrder,
        })),
        ...extra,
      },
    });

  /** The sealed PDF, once the sealer made it after the last signature. */
  const sealedPdf = (id: string): Promise<Buffer> =>
    eventually(
      `the sealed PDF of envelope ${id}`,
      async () => {
        const response = await t.app.inject({
          method: 'GET',
          url: `/backend/signature/envelopes/${id}/signed-pdf`,
          headers: bearer(legal),
        });
        if (response.statusCode === 200) return response.rawPayload;
        expect(response.statusCode, response.body).toBe(409);
        return undefined;
      },
      { intervalMs: 40 },
    );

  it('requires a countersignatory for contracts on a new database; the other families may go without', async () => {
    const listed = await t.app.inject({
      method: 'GET',
      url: '/backend/admin/countersignature',
      headers: bearer(ops),
    });
    expect(
      listed
        .json()
        .map((s: { family: string; withoutAllowed: boolean; changedBy: string | null }) => [
          s.family,
          s.withoutAllowed,
          s.changedBy,
        ]),
    ).toEqual([
      ['contract', false, null],
      ['termination', true, null],
      ['offer', true, null],
      ['agreement', true, null],
    ]);
    const envelope = await draft();
    expect(envelope.countersignature?.withoutAllowed).toBe(false);
    const without = await send(envelope, { countersignatory: null });
    expect(without.statusCode).toBe(400);
    expect(without.json().fields.countersignatory[0]).toContain('nicht ohne Gegenzeichnung versendet werden');
    expect((await view(envelope.id)).status).toBe('created');
  });

  it('lets only administrators read and change the switch per family, each change an audit entry', async () => {
    const listed = await t.app.inject({
      method: 'GET',
      url: '/backend/admin/countersignature',
      headers: bearer(ops),
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().map((s: { family: string; label: string }) => [s.family, s.label])).toEqual([
      ['contract', 'Vertrag'],
      ['termination', 'Kündigung'],
      ['offer', 'Angebot'],
      ['agreement', 'Zusatzvereinbarung'],
    ]);

    for (const token of [legal, berater, leitung]) {
      const read = await t.app.inject({
        method: 'GET',
        url: '/backend/admin/countersignature',
        headers: bearer(token),
      });
      expect(read.statusCode).toBe(403);
      expect((await setting(token, 'contract', { withoutAllowed: false })).statusCode).toBe(403);
    }
    const anonymous = await t.app.inject({
      method: 'PUT',
      url: '/backend/admin/countersignature/contract',
      payload: { withoutAllowed: false },
    });
    expect(anonymous.statusCode).toBe(401);

    const unknown = await setting(ops, 'brief', { withoutAllowed: false });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/[äöüÄÖÜß]|Dokumentart|Ungültig/);
    const noValue = await setting(ops, 'contract', {});
    expect(noValue.statusCode).toBe(400);
    expect(noValue.json().fields?.withoutAllowed).toBeDefined();

    const changed = await setting(ops, 'contract', { withoutAllowed: true });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().find((s: { family: string }) => s.family === 'contract')).toMatchObject({
      withoutAllowed: true,
      changedBy: OPS,
    });
    const audit = await t.app.inject({ method: 'GET', url: '/backend/admin/audit', headers: bearer(ops) });
    expect(audit.json().entries[0]).toMatchObject({
      actor: OPS,
      action: 'countersignature.set',
      subject: 'Vertrag',
      oldValue: 'Gegenzeichnung verlangt',
      newValue: 'ohne Gegenzeichnung erlaubt',
    });
    // Someone else's view of the sender page follows the switch.
    expect((await draft()).countersignature).toEqual({
      options: [{ id: SABINE.id, name: SABINE.name, function: 'Prokuristin' }],
      withoutAllowed: true,
      position: 'last',
    });
  });

  it('refuses to send a contract without a countersignatory where the switch is off, in German', async () => {
    await setting(ops, 'contract', { withoutAllowed: false });
    const envelope = await draft();
    const without = await send(envelope);
    expect(without.statusCode).toBe(400);
    expect(without.json().message).toContain('nicht ohne Gegenzeichnung versendet werden');
    expect(without.json().fields.countersignatory).toHaveLength(1);
    const stranger = await send(envelope, { countersignatory: 'henrik-albers' });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().fields.countersignatory[0]).toContain('nicht gegenzeichnen');
    const asRecipient = await send(envelope, {
      recipients: [
        { role: 'Projektpartner', ...PARTNER, routingOrder: 1 },
        { role: 'Firma', name: SABINE.name, email: SABINE.email, routingOrder: 2 },
      ],
    });
    expect(asRecipient.statusCode).toBe(400);
    // Nothing went out.
    expect((await view(envelope.id)).status).toBe('created');
    expect(t.mailer.sent).toEqual([]);
  });

  it('has the countersignatory sign last with their code; both signatures land in the sealed PDF', async () => {
    await setting(ops, 'contract', { withoutAllowed: false });
    const envelope = await draft();
    const sent = await send(envelope, { countersignatory: SABINE.id });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(
      (sent.json() as EnvelopeView).recipients.map((r) => [r.routingOrder, r.role, r.name, r.status]),
    ).toEqual([
      [1, 'Projektpartner', PARTNER.name, 'sent'],
      [2, 'Firma', SABINE.name, 'waiting'],
    ]);

    const partnerLink = await t.mailer.signingLink(PARTNER.email);
    // The company signs after the partner: no link for Sabine yet.
    expect(t.mailer.sent.filter((m) => m.to === SABINE.email)).toEqual([]);
    await signWithLink(t, partnerLink, PARTNER.name);

    const companyLink = await t.mailer.signingLink(SABINE.email);
    const opened = await t.app.inject({
      method: 'GET',
      url: '/backend/signing',
      headers: { 'x-signing-token': companyLink },
    });
    expect(opened.json().signer.role).toBe('Firma');
    // The document waits for her code, as for every signer.
    const early = await t.app.inject({
      method: 'POST',
      url: '/backend/signing/sign',
      headers: { 'x-signing-token': companyLink },
      payload: { consent: true, typedName: SABINE.name },
    });
    expect(early.statusCode).toBe(403);
    await confirmSigningCode(t, companyLink);
    const signed = await t.app.inject({
      method: 'POST',
      url: '/backend/signing/sign',
      headers: { 'x-signing-token': companyLink },
      payload: {
        consent: true,
        typedName: SABINE.name,
        drawnSignature: `data:image/png;base64,${Buffer.from(png(90, 30)).toString('base64')}`,
      },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect((await view(envelope.id)).status).toBe('completed');

    const pdf = await sealedPdf(envelope.id);
    expect(await pdfsig(pdf)).toMatch(/Signature Validation: Signature is Valid/);
    const [contractPage, ...certificate] = await pdfPages(pdf);
    // The company's block carries her signature; the seal does not stand in for it.
    expect(contractPage).toContain(`${SABINE.name}, Prokuristin · elektronisch unterschrieben am`);
    expect(contractPage).toContain(`${PARTNER.name} · elektronisch unterschrieben am`);
    expect(contractPage).not.toContain('elektronisch versiegelt');
    const certificateText = certificate.join('\n');
    expect(certificateText).toContain('Gegenzeichnung (Firma)');
    expect(certificateText).toContain(SABINE.name);
    expect(certificateText).toContain('Prokuristin');
    expect(certificateText).toContain(PARTNER.name);
    expect(certificateText.match(/Identität\s+bestätigt per E-Mail-Code/g)).toHaveLength(2);
    expect(certificateText).not.toContain('Für die Firma: elektronisch versiegelt');
  });

  it('has the company sign first where an administrator set that for the template, then invites the partner', async () => {
    const order = (token: string, template: string, payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/backend/admin/countersignature/order/${template}`,
        headers: bearer(token),
        payload,
      });
    for (const token of [legal, berater, leitung]) {
      expect((await order(token, 'einzelauftrag-de.docx', { position: 'first' })).statusCode).toBe(403);
    }
    expect((await order(ops, 'angebot.docx', { position: 'first' })).statusCode).toBe(400);
    const nonsense = await order(ops, 'einzelauftrag-de.docx', { position: 'mittendrin' });
    expect(nonsense.statusCode).toBe(400);
    expect(nonsense.json().fields.position[0]).toBe(
      'Bitte gib an, ob die Firma zuerst oder zuletzt unterschreibt.',
    );
    const changed = await order(ops, 'einzelauftrag-de.docx', { position: 'first' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toContainEqual(
      expect.objectContaining({ template: 'einzelauftrag-de.docx', position: 'first', changedBy: OPS }),
    );
    expect(changed.json()).toContainEqual(
      expect.objectContaining({ template: 'rahmenvertrag-de.docx', position: 'last', changedBy: null }),
    );
    const audit = await t.app.inject({ method: 'GET', url: '/backend/admin/audit', headers: bearer(ops) });
    expect(audit.json().entries[0]).toMatchObject({
      action: 'countersignature.order',
      subject: 'einzelauftrag-de.docx',
      oldValue: 'Firma unterschreibt zuletzt',
      newValue: 'Firma unterschreibt zuerst',
    });

    try {
      const envelope = await draft();
      expect(envelope.countersignature?.position).toBe('first');
      const sent = await send(envelope, { countersignatory: SABINE.id });
      expect(sent.statusCode, sent.body).toBe(200);
      expect((sent.json() as EnvelopeView).recipients.map((r) => [r.routingOrder, r.role, r.status])).toEqual(
        [
          [1, 'Firma', 'sent'],
          [2, 'Projektpartner', 'waiting'],
        ],
      );
      // The partner is invited once the company has signed.
      const companyLink = await t.mailer.signingLink(SABINE.email);
      const invitations = (to: string) =>
        t.mailer.sent.filter((m) => m.to === to && m.text.includes('/unterschreiben#'));
      expect(invitations(PARTNER.email)).toEqual([]);
      await signWithLink(t, companyLink, SABINE.name);
      await signWithLink(t, await t.mailer.signingLink(PARTNER.email), PARTNER.name);
      const [contractPage] = await pdfPages(await sealedPdf(envelope.id));
      expect(contractPage).toContain(`${SABINE.name}, Prokuristin · elektronisch unterschrieben am`);
      expect(contractPage).toContain(`${PARTNER.name} · elektronisch unterschrieben am`);
    } finally {
      await order(ops, 'einzelauftrag-de.docx', { position: 'last' });
    }
  });

  it('says on the contract page and the certificate that the seal stands for the company when sent without', async () => {
    const allowed = await setting(ops, 'contract', { withoutAllowed: true });
    expect(allowed.statusCode).toBe(200);
    const envelope = await draft();
    expect(envelope.countersignature?.withoutAllowed).toBe(true);
    const sent = await send(envelope, { countersignatory: null });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((sent.json() as EnvelopeView).recipients.map((r) => r.role)).toEqual(['Projektpartner']);
    expect((sent.json() as EnvelopeView).events.at(-1)?.detail).toContain('ohne Gegenzeichnung');
    await signWithLink(t, await t.mailer.signingLink(PARTNER.email), PARTNER.name);

    const [contractPage, ...certificate] = await pdfPages(await sealedPdf(envelope.id));
    expect(contractPage).toContain('Für die Firma: elektronisch versiegelt');
    expect(certificate.join('\n')).toContain('Für die Firma: elektronisch versiegelt');
    expect(certificate.join('\n')).not.toContain('Gegenzeichnung (Firma)');
  });
});
