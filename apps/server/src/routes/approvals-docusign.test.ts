import { join } from 'node:path';
import type { ApprovalRequest, EnvelopeView, ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { createDocusignProvider } from '../signature/docusign/docusign-provider.js';
import { richestDemoMatch } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import type { DocusignFake, TemplateEnvelope } from '../test/docusign-fake.js';
import { type DocusignConfig, docusignMode } from '../test/docusign-mode.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const demo: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
/** Remote (1000 − 876) ÷ 1000 = 12,4 %. */
const THIN: ResolvedMatch = { ...demo, matchId: 'PL-91001', vk: 1000, ek: 876, vk2: 1000, ek2: 800 };
const PUBLIC_URL = 'http://localhost:3000';
const BERATER = 'berater@demo.local';
const LEITUNG = 'leitung@demo.local';
const OPS = 'ops@demo.local';
/** WM's countersignatory (config/signatories.json). */
const WM_SIGNATORY = {
  id: 'henrik-albers',
  name: 'Henrik Albers',
  email: 'henrik.albers@wm-consulting.example',
};
/** A key sent as a DocuSign server template (DOCUSIGN_TEMPLATES_FILE); the others upload our DOCX. */
const TEMPLATE_KEY = 'de-we-pp-ev';
const TEMPLATE_ID = 'tpl-we-partner';

const partnerContract = {
  Absender_UserName: 'Berta Berater',
  Absender_Email: BERATER,
  Projektpartner_UserName: 'Paul Partner',
  Projektpartner_Email: 'paul@partner.example',
  vertragspartner_type: 'pp',
};
const sendBody = (countersignatory?: string | null) => ({
  subject: 'Bitte unterschreiben',
  message: 'Danke!',
  recipients: [
    { role: 'Projektpartner', name: 'Paul Partner', email: 'paul@partner.example', routingOrder: 1 },
  ],
  ...(countersignatory === undefined ? {} : { countersignatory }),
});

/**
 * Freigabe in DocuSign mode, against the local DocuSign fake: an envelope that needs approval never
 * reaches DocuSign as a draft its sender could send there; once approved, it is created at DocuSign
 * already sent, once — with its server template's tabs, its countersignatory, and a way out of a send
 * whose outcome DocuSign left open.
 */
describe.each(testDatabases())('Freigabe with DocuSign on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let fake: DocusignFake;
  let signature: DocusignConfig;
  const tokens: Record<string, string> = {};

  const app = (db: Db) =>
    createTestApp(db, {
      demoStaff: true,
      signature,
      env: { PUBLIC_URL },
      signatureProvider: createDocusignProvider(signature, {
        retryDelaysMs: [1, 1, 1],
        timeoutMs: 2_000,
      }),
    });

  beforeAll(async () => {
    ({ fake, signature } = await docusignMode({ templates: { [TEMPLATE_KEY]: TEMPLATE_ID } }));
    db = await database.open();
    await new MatchStore(db).upsertMany([THIN]);
    t = await app(db);
    for (const email of [BERATER, LEITUNG, OPS]) tokens[email] = await t.signIn(email);
  });
  beforeEach(async () => {
    // Each test sets the administrators' switch for contracts itself; most send without a countersignatory.
    await withoutCountersignature(true);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
    await fake.close();
  });

  const as = (email: string) => bearer(tokens[email] as string);
  const creates = () => fake.requests.filter((r) => r.endpoint === 'createEnvelope');
  async function withoutCountersignature(allowed: boolean) {
    const set = await t.app.inject({
      method: 'PUT',
      url: '/backend/admin/countersignature/contract',
      headers: as(OPS),
      payload: { withoutAllowed: allowed },
    });
    expect(set.statusCode, set.body).toBe(200);
  }

  /** A held partner contract of the thin deal; its id. */
  async function held(key = 'de-wm-pp-rv'): Promise<string> {
    const before = creates().length;
    const generated = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/${key}/${THIN.matchId}`,
      headers: as(BERATER),
      payload: { dataList: partnerContract },
    });
    expect(generated.statusCode, generated.body).toBe(200);
    const url: string = generated.json().data;
    expect(url).toMatch(/\/signatur\/[0-9a-f-]{36}$/);
    expect(creates()).toHaveLength(before);
    return url.split('/').pop() as string;
  }
  async function view(id: string, by = BERATER): Promise<EnvelopeView> {
    const response = await t.app.inject({
      method: 'GET',
      url: `/backend/signature/envelopes/${id}`,
      headers: as(by),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }
  async function ask(id: string, body: object = sendBody()): Promise<ApprovalRequest> {
    const asked = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/approval`,
      headers: as(BERATER),
      payload: body,
    });
    expect(asked.statusCode, asked.body).toBe(201);
    return asked.json();
  }
  const approve = (id: string) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/approvals/${id}/approve`,
      headers: as(LEITUNG),
      payload: {},
    });
  const sendAgain = (id: string, by: string, payload: object = { notAtDocusign: true }) =>
    t.app.inject({ method: 'POST', url: `/backend/approvals/${id}/send-again`, headers: as(by), payload });
  const request = async (id: string, by = BERATER): Promise<ApprovalRequest> =>
    (await t.app.inject({ method: 'GET', url: `/backend/approvals/${id}`, headers: as(by) })).json();
  /** Another server process on the same database takes the due sends up as it starts. */
  async function runDueSendsElsewhere(approvalId: string, until: (r: ApprovalRequest) => boolean) {
    await db
      .updateTable('approval_requests')
      .set({ send_due_at: new Date(0) })
      .where('id', '=', approvalId)
      .execute();
    const other = await app(db);
    try {
      await expect.poll(async () => until(await request(approvalId)), { timeout: 15_000 }).toBe(true);
    } finally {
      await other.app.close();
    }
  }

  it('holds a thin deal as our draft, and creates it at DocuSign already sent once a leader approves', async () => {
    const id = await held();
    const draft = await view(id);
    expect(draft).toMatchObject({ provider: 'docusign', status: 'created' });
    expect(draft.approval?.reasonTexts).toEqual(['Marge remote 12,4 % liegt unter 15 % (WM)']);
    const asked = await ask(id);
    const approved = await approve(asked.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().send, approved.body).toMatchObject({ state: 'done' });
    expect(creates().at(-1)?.body).toMatchObject({ status: 'sent', emailSubject: 'Bitte unterschreiben' });
    const sent = await view(id);
    expect(sent.status).toBe('sent');
    expect(sent.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['approval_requested', 'approved', 'sent']),
    );
  });

  it('keeps a declined draft at home: nothing reaches DocuSign, the requester is told, and may ask again', async () => {
    const id = await held();
    const before = creates().length;
    const asked = await ask(id);
    const declined = await t.app.inject({
      method: 'POST',
      url: `/backend/approvals/${asked.id}/decline`,
      headers: as(LEITUNG),
      payload: { reason: 'Bitte erst die Marge nachverhandeln.' },
    });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toMatchObject({ status: 'declined', send: null });
    expect(creates()).toHaveLength(before);
    const draft = await view(id);
    expect(draft.status).toBe('created');
    expect(draft.approval?.request?.status).toBe('declined');
    await expect
      .poll(
        () => t.mailer.sent.find((m) => m.to === BERATER && m.subject.startsWith('Freigabe abgelehnt'))?.text,
      )
      .toContain('Bitte erst die Marge nachverhandeln.');
    expect((await ask(id)).status).toBe('open');
  });

  it('fills a server template’s text tabs from the document’s data', async () => {
    const id = await held(TEMPLATE_KEY);
    const asked = await ask(id);
    expect((await approve(asked.id)).json().send).toMatchObject({ state: 'done' });
    const sent = creates().at(-1)?.body as TemplateEnvelope;
    expect(sent).toMatchObject({ status: 'sent', templateId: TEMPLATE_ID });
    const tabs = sent.templateRoles.find((role) => role.roleName === 'Projektpartner')?.tabs?.textTabs ?? [];
    expect(tabs).toEqual(
      expect.arrayContaining([
        { tabLabel: 'matchId', value: THIN.matchId },
        expect.objectContaining({ tabLabel: 'firmaName', value: expect.stringMatching(/\S/) }),
      ]),
    );
  });

  it('lets the sender choose the countersignatory where contracts need one, and sends it to DocuSign', async () => {
    await withoutCountersignature(false);
    const id = await held();
    const draft = await view(id);
    expect(draft.countersignature).toMatchObject({ withoutAllowed: false });
    expect(draft.countersignature?.options.map((o) => o.id)).toContain(WM_SIGNATORY.id);
    // The recipient proposed at creation is the choice's to make, not a row of the form.
    expect(draft.recipients.map((r) => r.role)).not.toContain('Firma');
    const missing = await t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/approval`,
      headers: as(BERATER),
      payload: sendBody(),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.countersignatory[0]).toMatch(/nicht ohne Gegenzeichnung/);
    const asked = await ask(id, sendBody(WM_SIGNATORY.id));
    const approved = await approve(asked.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().send).toMatchObject({ state: 'done' });
    const created = creates().at(-1)?.body as { recipients: { signers: { name: string; email: string }[] } };
    const signers = created.recipients.signers;
    expect(signers.map((s) => s.email)).toEqual(['paul@partner.example', WM_SIGNATORY.email]);
    const sent = await view(id);
    expect(sent.status).toBe('sent');
    expect(sent.recipients.find((r) => r.role === 'Firma')).toMatchObject({ name: WM_SIGNATORY.name });
  });

  it('places the countersignatory first where an administrator set that for the template', async () => {
    const order = (position: 'first' | 'last') =>
      t.app.inject({
        method: 'PUT',
        url: '/backend/admin/countersignature/order/rahmenvertrag-de.docx',
        headers: as(OPS),
        payload: { position },
      });
    expect((await order('first')).statusCode).toBe(200);
    try {
      const id = await held();
      const asked = await ask(id, sendBody(WM_SIGNATORY.id));
      expect((await approve(asked.id)).json().send).toMatchObject({ state: 'done' });
      const created = creates().at(-1)?.body as {
        recipients: { signers: { email: string; routingOrder: string }[] };
      };
      expect(created.recipients.signers.map((s) => [s.email, s.routingOrder])).toEqual([
        [WM_SIGNATORY.email, '1'],
        ['paul@partner.example', '2'],
      ]);
    } finally {
      expect((await order('last')).statusCode).toBe(200);
    }
  });

  it('retries a send DocuSign surely did not take (5xx), by itself', async () => {
    const id = await held();
    const asked = await ask(id);
    const before = creates().length;
    // The client's own retries (three) end on the fourth 503: the attempt fails as passing.
    fake.failNext('createEnvelope', { status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    const approved = await approve(asked.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().send).toMatchObject({ state: 'pending' });
    expect((await view(id)).status).toBe('created');
    await runDueSendsElsewhere(asked.id, (r) => r.send?.state === 'done');
    expect(creates()).toHaveLength(before + 5);
    expect((await view(id)).status).toBe('sent');
  });

  it('stops a send whose outcome DocuSign left open, until the requester checked and sends it again', async () => {
    const id = await held();
    const asked = await ask(id);
    // DocuSign's gateway gave up waiting: the envelope may exist there.
    fake.failNext('createEnvelope', { status: 504 });
    const approved = await approve(asked.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().send).toMatchObject({ state: 'pending' });
    await runDueSendsElsewhere(asked.id, (r) => r.send?.state === 'failed');
    const failed = await request(asked.id);
    expect(failed.send).toMatchObject({ state: 'failed', uncertain: true });
    expect(failed.send?.error).toMatch(/Bitte prüfe es in DocuSign/);
    expect(failed.maySendAgain).toBe(true);
    expect((await request(asked.id, LEITUNG)).maySendAgain).toBe(false);
    const told = await db
      .selectFrom('outgoing_mail')
      .select('body')
      .where('recipient', '=', BERATER)
      .where('reference', '=', `approval:${asked.id}`)
      .where('subject', 'like', 'Versand nach Freigabe%')
      .execute();
    expect(told).toHaveLength(1);
    expect(told[0]?.body).toMatch(/Bitte prüfe es in DocuSign/);
    const before = creates().length;

    // Neither the approver nor an unconfirmed call releases it; the requester's confirmation does.
    expect((await sendAgain(asked.id, LEITUNG)).statusCode).toBe(403);
    const unconfirmed = await sendAgain(asked.id, BERATER, {});
    expect(unconfirmed.statusCode).toBe(400);
    expect(JSON.stringify(unconfirmed.json().fields)).toContain('Bitte bestätige');
    expect(creates()).toHaveLength(before);
    const again = await sendAgain(asked.id, BERATER);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ status: 'approved', send: { state: 'done' }, maySendAgain: false });
    expect(creates()).toHaveLength(before + 1);
    expect((await view(id)).status).toBe('sent');
    const audit = await db
      .selectFrom('audit_entries')
      .select(['actor', 'action'])
      .where('action', '=', 'approval.send-again')
      .execute();
    expect(audit).toContainEqual({ actor: BERATER, action: 'approval.send-again' });
    // Nothing left to release.
    expect((await sendAgain(asked.id, OPS)).statusCode).toBe(409);
  });
});
