import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  type ApprovalList,
  type ApprovalRequest,
  type ApprovalRulesView,
  DEFAULT_APPROVAL_RULES,
  DOCX_MIME_TYPE,
  type EnvelopeView,
  type ResolvedMatch,
} from '@vertragsgenerator/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import { ApprovalEvaluation } from '../approvals/approval-evaluation.js';
import { ApprovalRequests } from '../approvals/approval-requests.js';
import { ApprovalRulesStore } from '../approvals/approval-rules-store.js';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MailOutbox } from '../mail/mail-outbox.js';
import { DatabaseMatchSource } from '../matches/database-match-source.js';
import { MatchStore } from '../matches/match-store.js';
import { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { richestDemoMatch } from '../templates/samples.js';
import { testDatabases } from '../test/databases.js';
import { editedDocx } from '../test/docx-fixture.js';
import { SwitchableSource } from '../test/switchable-match-source.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const demo: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
/** Remote (1000 − 876) ÷ 1000 = 12,4 %; onsite 20 %. */
const THIN: ResolvedMatch = { ...demo, matchId: 'PL-90001', vk: 1000, ek: 876, vk2: 1000, ek2: 800 };
const HEALTHY: ResolvedMatch = { ...demo, matchId: 'PL-90002', vk: 1000, ek: 700, vk2: 1000, ek2: 700 };
/** An onsite selling rate without its buying rate: the onsite margin cannot be known. */
const ONSITE_WITHOUT_EK: ResolvedMatch = {
  ...demo,
  matchId: 'PL-90003',
  vk: 1000,
  ek: 700,
  vk2: 1100,
  ek2: undefined,
};
const GONE: ResolvedMatch = { ...demo, matchId: 'PL-90004', vk: 1000, ek: 700, vk2: 1000, ek2: 700 };

const BERATER = 'berater@demo.local';
const LEITUNG = 'leitung@demo.local';
const LEITUNG2 = 'elif.engel@demo.local';
const LEGAL = 'legal@demo.local';
const OPS = 'ops@demo.local';
const PARTNER = { name: 'Paul Partner', email: 'paul@partner.example' };
const METRICS_TOKEN = 'scraper-token-of-the-approvals-test';

describe.each(testDatabases())('Freigabe (approvals) on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let source: SwitchableSource;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([THIN, HEALTHY, ONSITE_WITHOUT_EK, GONE]);
    source = new SwitchableSource(new DatabaseMatchSource(db));
    t = await createTestApp(db, { demoStaff: true, matches: source, env: { METRICS_TOKEN } });
    for (const email of [BERATER, LEITUNG, LEITUNG2, LEGAL, OPS]) tokens[email] = await t.signIn(email);
    // These envelopes go out without the company's countersignatory: the administrators allow that here.
    const allowed = await t.app.inject({
      method: 'PUT',
      url: '/backend/admin/countersignature/contract',
      headers: as(OPS),
      payload: { withoutAllowed: true },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
  beforeEach(async () => {
    source.down = false;
    // What an earlier test queued is delivered first, so that each test sees only its own mail.
    await expect
      .poll(
        async () =>
          (
            await db
              .selectFrom('outgoing_mail')
              .select(db.fn.countAll<string>().as('n'))
              .where('sent_at', 'is', null)
              .executeTakeFirstOrThrow()
          ).n.toString(),
        { timeout: 15_000 },
      )
      .toBe('0');
    t.mailer.sent.length = 0;
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const as = (email: string) => bearer(tokens[email] as string);

  /** A partner contract of WE (`de-we-pp-ev`) for `matchId`, drafted by the consultant. */
  async function draft(
    matchId: string,
    by = BERATER,
  ): Promise<{ id: string; send: object; documentId: string }> {
    const created = await t.app.inject({
      method: 'POST',
      url: `/backend/generateDocusign/de-we-pp-ev/${matchId}`,
      headers: as(by),
      payload: {
        dataList: {
          Absender_UserName: 'Berta Berater',
          Absender_Email: BERATER,
          Projektpartner_UserName: PARTNER.name,
          Projektpartner_Email: PARTNER.email,
          vertragspartner_type: 'pp',
        },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = (created.json().data as string).split('/').pop() as string;
    const envelope = await view(id, by);
    return {
      id,
      documentId: envelope.documentId,
      send: {
        subject: envelope.subject,
        message: 'Bitte unterschreiben.',
        recipients: envelope.recipients.map(({ role, name, email, routingOrder }) => ({
          role,
          name,
          email,
          routingOrder,
        })),
      },
    };
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

  const send = (id: string, payload: object, by = BERATER) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/send`,
      headers: as(by),
      payload,
    });
  const ask = (id: string, payload: object, by = BERATER) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/signature/envelopes/${id}/approval`,
      headers: as(by),
      payload,
    });
  const approve = (id: string, by: string, comment?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/approvals/${id}/approve`,
      headers: as(by),
      payload: comment ? { comment } : {},
    });
  const decline = (id: string, by: string, reason?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/backend/approvals/${id}/decline`,
      headers: as(by),
      payload: reason === undefined ? {} : { reason },
    });
  const list = async (by: string, status = 'open'): Promise<ApprovalList> => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/backend/approvals?status=${status}`,
      headers: as(by),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const rules = async (): Promise<ApprovalRulesView> =>
    (await t.app.inject({ method: 'GET', url: '/backend/approval-rules', headers: as(LEGAL) })).json();
  const putRules = (by: string, body: object) =>
    t.app.inject({ method: 'PUT', url: '/backend/approval-rules', headers: as(by), payload: body });
  const invitations = () => t.mailer.sent.filter((m) => m.to === PARTNER.email);

  it('starts with the default rules: margin below 15 %, edited text, leaders then legal after 2 working days', async () => {
    const view = await rules();
    expect(view.rules).toEqual(DEFAULT_APPROVAL_RULES);
    expect(view.mayChange).toBe(true);
  });

  it('sends a healthy deal as before, without approval', async () => {
    const { id, send: body } = await draft(HEALTHY.matchId);
    expect((await view(id)).approval).toMatchObject({ required: false, reasons: [], request: null });
    const sent = await send(id, body);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().status).toBe('sent');
  });

  it('refuses to send a thin margin (409 with the reasons) and takes a missing rate as a reason', async () => {
    const { id, send: body } = await draft(THIN.matchId);
    expect((await view(id)).approval).toMatchObject({
      required: true,
      reasonTexts: ['Marge remote 12,4 % liegt unter 15 % (WE)'],
    });
    const refused = await send(id, body);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: 'approval_required',
      reasonTexts: ['Marge remote 12,4 % liegt unter 15 % (WE)'],
    });
    expect((await view(id)).status).toBe('created');
    expect(invitations()).toEqual([]);

    const halfOnsite = await draft(ONSITE_WITHOUT_EK.matchId);
    const refusedToo = await send(halfOnsite.id, halfOnsite.send);
    expect(refusedToo.statusCode).toBe(409);
    expect(refusedToo.json().reasonTexts).toEqual(['Marge onsite fehlt (VK oder EK nicht angegeben)']);
  });

  it('asks the leaders, refuses the requester (four eyes) and legal before the escalation, and sends once approved', async () => {
    const { id, send: body } = await draft(THIN.matchId);
    const asked = await ask(id, body);
    expect(asked.statusCode, asked.body).toBe(201);
    const request: ApprovalRequest = asked.json();
    expect(request).toMatchObject({ status: 'open', envelopeId: id, requestedBy: { email: BERATER } });
    await expect.poll(() => t.mailer.sent.map((m) => m.to)).toContain(LEITUNG);
    const mailed = t.mailer.sent.map((m) => m.to);
    expect(mailed).not.toContain(BERATER);
    expect(mailed).not.toContain(LEGAL);
    expect((await view(id)).approval?.request?.status).toBe('open');
    const overview = await t.app.inject({
      method: 'GET',
      url: '/backend/signature/envelopes?status=awaiting_approval',
      headers: as(BERATER),
    });
    expect(
      overview.json().envelopes.map((e: { id: string; status: string }) => [e.id, e.status]),
    ).toContainEqual([id, 'awaiting_approval']);

    // A second request for the same envelope waits behind the first.
    expect((await ask(id, body)).statusCode).toBe(409);
    // Sending directly is still refused.
    expect((await send(id, body)).statusCode).toBe(409);

    expect((await list(LEITUNG)).requests.map((r) => r.id)).toContain(request.id);
    expect((await list(LEITUNG)).requests.find((r) => r.id === request.id)?.mayDecide).toBe(true);
    expect((await list(BERATER)).requests.find((r) => r.id === request.id)?.mayDecide).toBe(false);

    const own = await approve(request.id, BERATER);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toMatch(/eigene Anfrage/);
    const early = await approve(request.id, LEGAL);
    expect(early.statusCode).toBe(403);

    const approved = await approve(request.id, LEITUNG, 'Passt, strategischer Kunde.');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'approved',
      decidedBy: { email: LEITUNG },
      comment: 'Passt, strategischer Kunde.',
      send: { state: 'done' },
    });
    const envelope = await view(id);
    expect(envelope.status).toBe('sent');
    expect(envelope.subject).toBe((body as { subject: string }).subject);
    expect(envelope.message).toBe('Bitte unterschreiben.');
    const types = envelope.events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['approval_requested', 'approved', 'sent']));
    expect(envelope.events.find((e) => e.type === 'sent')?.actor).toBe(BERATER);
    expect(envelope.events.find((e) => e.type === 'approved')?.actor).toBe(LEITUNG);
    await t.app.inject({ method: 'GET', url: '/backend/health' });
    await expect.poll(() => invitations().length).toBe(1);
  });

  it('lets one of two approvers at once win; the other is told', async () => {
    const { id, send: body } = await draft(THIN.matchId);
    const request: ApprovalRequest = (await ask(id, body)).json();
    const answers = await Promise.all([approve(request.id, LEITUNG), approve(request.id, LEITUNG2)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const loser = answers.find((a) => a.statusCode === 409);
    expect(loser?.json().message).toMatch(/bereits .* freigegeben/);
    await expect.poll(async () => (await view(id)).status).toBe('sent');
    await expect.poll(() => invitations().length).toBe(1);
    expect((await view(id)).events.filter((e) => e.type === 'sent')).toHaveLength(1);
  });

  it('declines only with a reason, mails the requester, and leaves a draft to ask again for', async () => {
    const { id, send: body } = await draft(THIN.matchId);
    const request: ApprovalRequest = (await ask(id, body)).json();
    const noReason = await decline(request.id, LEITUNG, '  ');
    expect(noReason.statusCode).toBe(400);
    expect(JSON.stringify(noReason.json().fields)).toContain('Bitte gib einen Grund für die Ablehnung an.');
    const declined = await decline(request.id, LEITUNG, 'Marge zu dünn, bitte nachverhandeln.');
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json()).toMatchObject({
      status: 'declined',
      comment: 'Marge zu dünn, bitte nachverhandeln.',
    });
    await expect
      .poll(() => t.mailer.sent.find((m) => m.to === BERATER)?.text ?? '')
      .toContain('Marge zu dünn, bitte nachverhandeln.');
    const envelope = await view(id);
    expect(envelope.status).toBe('created');
    expect(envelope.approval?.request?.status).toBe('declined');
    expect(envelope.events.map((e) => e.type)).toContain('approval_declined');
    expect((await approve(request.id, LEITUNG2)).statusCode).toBe(409);
    expect((await ask(id, body)).statusCode).toBe(201);
    expect(invitations()).toEqual([]);
  });

  it('needs approval for an edited text; an edit after the approval voids it', async () => {
    const { id, send: body, documentId } = await draft(HEALTHY.matchId);
    expect((await view(id)).approval?.required).toBe(false);
    const original = await t.app.inject({
      method: 'GET',
      url: `/backend/documents/${documentId}/file`,
      headers: as(BERATER),
    });
    const save = (content: Buffer, version: number) =>
      t.app.inject({
        method: 'PUT',
        url: `/backend/documents/${documentId}`,
        headers: { ...as(BERATER), 'content-type': DOCX_MIME_TYPE, 'if-match': `"${version}"` },
        payload: content,
      });
    const saved = await save(editedDocx(original.rawPayload, 'Sonderregel: Reisekosten pauschal.'), 1);
    expect(saved.statusCode, saved.body).toBe(200);
    const after = await view(id);
    expect(after.approval).toMatchObject({
      required: true,
      reasonTexts: ['Text nach der Erstellung geändert'],
    });
    expect((await send(id, body)).statusCode).toBe(409);

    const request: ApprovalRequest = (await ask(id, body)).json();
    expect(request.documentVersion).toBe(2);
    const comparison = await t.app.inject({
      method: 'GET',
      url: `/backend/approvals/${request.id}/comparison`,
      headers: as(LEITUNG),
    });
    expect(comparison.statusCode).toBe(200);
    expect(comparison.json().edited).toBe(true);
    expect(JSON.stringify(comparison.json().paragraphs)).toContain('Sonderregel');

    // Changed again before the decision: the request is void, approving it is refused.
    const version2 = await t.app.inject({
      method: 'GET',
      url: `/backend/documents/${documentId}/file`,
      headers: as(BERATER),
    });
    expect((await save(editedDocx(version2.rawPayload, 'Noch eine Regel.'), 2)).statusCode).toBe(200);
    const voided = await approve(request.id, LEITUNG);
    expect(voided.statusCode).toBe(409);
    expect((await view(id)).approval?.request?.status).toBe('void');
    expect((await view(id)).status).toBe('created');

    const again: ApprovalRequest = (await ask(id, body)).json();
    expect(again.documentVersion).toBe(3);
    expect((await approve(again.id, LEITUNG)).json().send.state).toBe('done');
    const sent = await view(id);
    expect(sent.status).toBe('sent');
    await expect.poll(() => invitations().length).toBe(1);
  });

  it('refuses a request for a match the CRM no longer has, in German, and asks nobody', async () => {
    const { id, send: body } = await draft(GONE.matchId);
    await db.deleteFrom('matches').where('match_id', '=', GONE.matchId).execute();
    const refused = await ask(id, body);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toMatch(/gibt es im CRM nicht mehr/);
    expect(t.mailer.sent).toEqual([]);
    expect(
      await db.selectFrom('approval_requests').select('id').where('envelope_id', '=', id).execute(),
    ).toEqual([]);
  });

  it('keeps the rules for administrators and legal staff, refuses bad input in German, and audits each change', async () => {
    const current = await rules();
    expect((await putRules(BERATER, { rules: current.rules })).statusCode).toBe(403);
    expect((await putRules(LEITUNG, { rules: current.rules })).statusCode).toBe(403);
    const notPercent = await putRules(LEGAL, {
      rules: { ...current.rules, margin: { enabled: true, thresholds: { wm: 150, we: 15, wp: 15 } } },
    });
    expect(notPercent.statusCode).toBe(400);
    expect(JSON.stringify(notPercent.json().fields)).toContain(
      'Der Schwellenwert muss ein Prozentsatz zwischen 0 und 100 sein.',
    );
    const noApprovers = await putRules(OPS, {
      rules: { ...current.rules, approvers: { order: [], escalationWorkingDays: 2 } },
    });
    expect(noApprovers.statusCode).toBe(400);
    expect(JSON.stringify(noApprovers.json().fields)).toContain(
      'Bitte wähle mindestens eine Gruppe, die freigibt.',
    );
    expect((await rules()).version).toBe(current.version);
    const stale = await putRules(OPS, { rules: current.rules, version: 'stale' });
    expect(stale.statusCode).toBe(409);
  });

  it('lets only administrators name deputies; legal staff change the rest', async () => {
    const viewOf = async (by: string): Promise<ApprovalRulesView> =>
      (await t.app.inject({ method: 'GET', url: '/backend/approval-rules', headers: as(by) })).json();
    expect((await viewOf(LEGAL)).mayNameDeputies).toBe(false);
    expect((await viewOf(OPS)).mayNameDeputies).toBe(true);
    expect((await viewOf(LEITUNG)).mayNameDeputies).toBe(false);
    const current = await rules();
    const refused = await putRules(LEGAL, {
      version: current.version,
      rules: { ...current.rules, deputies: ['anna.albrecht@demo.local'] },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/^Vertretungen benennt nur die Verwaltung/);
    expect(await rules()).toMatchObject({ version: current.version, rules: current.rules });
    // The administrator names one; legal staff then change the rest and keep the deputy as named.
    const named = await putRules(OPS, {
      version: current.version,
      rules: { ...current.rules, deputies: ['anna.albrecht@demo.local'] },
    });
    expect(named.statusCode, named.body).toBe(200);
    const byLegal = await putRules(LEGAL, {
      version: named.json().version,
      rules: { ...named.json().rules, editedText: false, deputies: ['Anna.Albrecht@demo.local'] },
    });
    expect(byLegal.statusCode, byLegal.body).toBe(200);
    const removed = await putRules(LEGAL, { rules: { ...byLegal.json().rules, deputies: [] } });
    expect(removed.statusCode).toBe(403);
    expect((await putRules(OPS, { rules: DEFAULT_APPROVAL_RULES })).statusCode).toBe(200);
  });

  it('lets a deputy decide a request the rules do not otherwise let them decide', async () => {
    const ANNA = 'anna.albrecht@demo.local';
    const anna = bearer(await t.signIn(ANNA));
    expect((await putRules(OPS, { rules: { ...DEFAULT_APPROVAL_RULES, deputies: [ANNA] } })).statusCode).toBe(
      200,
    );
    try {
      const { id, send: body } = await draft(THIN.matchId);
      const request: ApprovalRequest = (await ask(id, body)).json();
      await expect.poll(() => t.mailer.sent.map((m) => m.to)).toContain(ANNA);
      const seen = await t.app.inject({
        method: 'GET',
        url: `/backend/approvals/${request.id}`,
        headers: anna,
      });
      expect(seen.json()).toMatchObject({ mayDecide: true });
      const approved = await t.app.inject({
        method: 'POST',
        url: `/backend/approvals/${request.id}/approve`,
        headers: anna,
        payload: { comment: 'In Vertretung von Leo Leitung.' },
      });
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json()).toMatchObject({ decidedBy: { email: ANNA }, send: { state: 'done' } });
      await expect.poll(() => invitations().length).toBe(1);
    } finally {
      await putRules(OPS, { rules: DEFAULT_APPROVAL_RULES });
    }
  });

  it('refuses a request nobody but the requester may approve (422 no_approver), and stores nothing', async () => {
    // Leaders only, and Leo Leitung the only leader: nobody else may decide his request.
    expect(
      (
        await putRules(OPS, {
          rules: { ...DEFAULT_APPROVAL_RULES, approvers: { order: ['leaders'], escalationWorkingDays: 2 } },
        })
      ).statusCode,
    ).toBe(200);
    await db.updateTable('users').set({ permission: 1 }).where('email', '=', LEITUNG2).execute();
    try {
      const { id, send: body } = await draft(THIN.matchId, LEITUNG);
      const refused = await ask(id, body, LEITUNG);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({
        error: 'no_approver',
        message: 'Niemand außer dir darf diesen Umschlag freigeben. Bitte wende dich an die Verwaltung.',
      });
      expect(
        await db.selectFrom('approval_requests').select('id').where('envelope_id', '=', id).execute(),
      ).toEqual([]);
      expect((await view(id, LEITUNG)).status).toBe('created');
    } finally {
      await db.updateTable('users').set({ permission: 3 }).where('email', '=', LEITUNG2).execute();
      await putRules(OPS, { rules: DEFAULT_APPROVAL_RULES });
    }
  });

  it('voids an approval whose document was edited while its send waited, fails the send and mails the requester', async () => {
    const { id, send: body, documentId } = await draft(THIN.matchId);
    const request: ApprovalRequest = (await ask(id, body)).json();
    // The CRM is down when it is approved: the decision is recorded, the send waits.
    source.down = true;
    const approved = await approve(request.id, LEITUNG);
    expect(approved.json()).toMatchObject({ status: 'approved', send: { state: 'pending' } });
    const original = await t.app.inject({
      method: 'GET',
      url: `/backend/documents/${documentId}/file`,
      headers: as(BERATER),
    });
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/backend/documents/${documentId}`,
      headers: { ...as(BERATER), 'content-type': DOCX_MIME_TYPE, 'if-match': '"1"' },
      payload: editedDocx(original.rawPayload, 'Nach der Freigabe eingefügt.'),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    source.down = false;
    await db
      .updateTable('approval_requests')
      .set({ send_due_at: new Date(0) })
      .where('id', '=', request.id)
      .execute();
    // Another process on the same database takes the due send up as it starts.
    const other = await createTestApp(db, { matches: source });
    try {
      await expect
        .poll(
          () =>
            db
              .selectFrom('approval_requests')
              .select(['status', 'void_reason', 'send_state'])
              .where('id', '=', request.id)
              .executeTakeFirstOrThrow(),
          { timeout: 15_000 },
        )
        .toEqual({
          status: 'void',
          void_reason: 'Dokument nach der Freigabe geändert',
          send_state: 'failed',
        });
    } finally {
      await other.app.close();
    }
    const told = await db
      .selectFrom('outgoing_mail')
      .select(['recipient', 'body'])
      .where('reference', '=', `approval:${request.id}`)
      .where('subject', 'like', 'Versand nach Freigabe nicht möglich%')
      .execute();
    expect(told).toEqual([
      {
        recipient: BERATER,
        body: expect.stringContaining(
          'Das Dokument wurde nach der Freigabe geändert; die Freigabe ist hinfällig.',
        ),
      },
    ]);
    const envelope = await view(id);
    expect(envelope.status).toBe('created');
    expect(envelope.approval?.request?.status).toBe('void');
    expect(envelope.approval?.required).toBe(true);
    expect(invitations()).toEqual([]);
  });

  it('applies a rule change to new requests only: a pending request keeps the rules it was made under', async () => {
    const before = await draft(THIN.matchId);
    const pending: ApprovalRequest = (await ask(before.id, before.send)).json();
    expect(pending.rules.approvers.order).toEqual(['leaders', 'legal']);
    const current = await rules();
    const changed = await putRules(LEGAL, {
      version: current.version,
      rules: {
        ...current.rules,
        margin: { enabled: true, thresholds: { wm: 15, we: 10, wp: 15 } },
        documentTypes: ['contract'],
        approvers: { order: ['legal'], escalationWorkingDays: 2 },
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const audit = await db
      .selectFrom('audit_entries')
      .selectAll()
      .where('action', '=', 'approval-rules.set')
      .execute();
    expect(audit.at(-1)?.actor).toBe(LEGAL);

    // The pending request: still the leaders', with its reasons.
    const still = await t.app.inject({
      method: 'GET',
      url: `/backend/approvals/${pending.id}`,
      headers: as(LEITUNG),
    });
    expect(still.json()).toMatchObject({ mayDecide: true, reasonTexts: pending.reasonTexts });
    // A new one: by the new rules (12,4 % is above WE's 10 %, every contract needs approval), legal decides.
    const after = await draft(THIN.matchId);
    const fresh: ApprovalRequest = (await ask(after.id, after.send)).json();
    expect(fresh.reasonTexts).toEqual(['Dokumenttyp Vertrag braucht immer eine Freigabe']);
    expect((await approve(fresh.id, LEITUNG)).statusCode).toBe(403);
    expect((await approve(fresh.id, LEGAL)).statusCode).toBe(200);
    expect((await approve(pending.id, LEITUNG)).statusCode).toBe(200);

    await putRules(OPS, { rules: DEFAULT_APPROVAL_RULES });
  });

  it('sends exactly once after a crash between the decision and the send', async () => {
    const { id, send: body } = await draft(THIN.matchId);
    const request: ApprovalRequest = (await ask(id, body)).json();
    // The CRM is down when the approval is given: the decision is recorded, the send is not made.
    source.down = true;
    const approved = await approve(request.id, LEITUNG);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', send: { state: 'pending' } });
    expect((await view(id)).status).toBe('created');
    // The server stops (as in a crash, before its retry); another instance starts on the same database.
    await t.app.close();
    await db
      .updateTable('approval_requests')
      .set({ send_due_at: new Date(0) })
      .where('id', '=', request.id)
      .execute();
    source.down = false;
    t = await createTestApp(db, { matches: source, env: { METRICS_TOKEN } });
    for (const email of [BERATER, LEITUNG, LEITUNG2, LEGAL, OPS]) tokens[email] = await t.signIn(email);
    await expect.poll(async () => (await view(id)).status, { timeout: 10_000 }).toBe('sent');
    const state = await db
      .selectFrom('approval_requests')
      .select(['send_state', 'send_attempts'])
      .where('id', '=', request.id)
      .executeTakeFirstOrThrow();
    expect(state.send_state).toBe('done');
    // A run more, and a lease that ran out again: nothing is sent twice.
    await db
      .updateTable('approval_requests')
      .set({ send_due_at: new Date(0) })
      .where('id', '=', request.id)
      .execute();
    await t.app.inject({ method: 'GET', url: '/backend/approvals', headers: as(LEITUNG) });
    await expect.poll(() => invitations().length, { timeout: 10_000 }).toBe(1);
    expect((await view(id)).events.filter((e) => e.type === 'sent')).toHaveLength(1);
  });

  it('lists open and decided requests with their counts', async () => {
    const open = await list(LEITUNG, 'open');
    const decided = await list(LEITUNG, 'decided');
    const all = await list(LEITUNG, 'all');
    expect(open.requests.every((r) => r.status === 'open')).toBe(true);
    expect(decided.requests.every((r) => r.status !== 'open')).toBe(true);
    expect(all.counts.all).toBe(all.counts.open + all.counts.decided);
    expect(all.total).toBe(all.counts.all);
    expect(decided.counts.decided).toBeGreaterThan(0);
  });

  it('reports open requests and the age of the oldest, which promtool accepts', async () => {
    const { id, send: body } = await draft(THIN.matchId);
    expect((await ask(id, body)).statusCode).toBe(201);
    const scrape = await t.app.inject({
      method: 'GET',
      url: '/backend/metrics',
      headers: bearer(METRICS_TOKEN),
    });
    expect(scrape.statusCode).toBe(200);
    const value = (series: string) =>
      Number(
        scrape.body
          .split('\n')
          .find((line) => line.startsWith(`${series} `))
          ?.slice(series.length + 1),
      );
    const open = await db
      .selectFrom('approval_requests')
      .select(db.fn.countAll<string>().as('n'))
      .where('status', '=', 'open')
      .executeTakeFirstOrThrow();
    expect(value('approval_requests_open')).toBe(Number(open.n));
    expect(value('approval_requests_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(value('approval_sends_pending')).toBe(0);
    const check = spawnSync('promtool', ['check', 'metrics'], { input: scrape.body, encoding: 'utf8' });
    if (check.error)
      throw new Error(`promtool is needed (apt-get install prometheus): ${check.error.message}`);
    expect(check.stderr.split('\n').filter((problem) => problem.startsWith('approval_'))).toEqual([]);
  });

  it('lets legal decide at once when the only leader asks: they were mailed, and are not mailed again', async () => {
    // Elif Engel steps down for this test: Leo Leitung is the only leader, and asks himself.
    await db.updateTable('users').set({ permission: 1 }).where('email', '=', LEITUNG2).execute();
    try {
      const { id, send: body } = await draft(THIN.matchId, LEITUNG);
      const asked = await ask(id, body, LEITUNG);
      expect(asked.statusCode, asked.body).toBe(201);
      const request: ApprovalRequest = asked.json();
      expect(request.currentGroups).toEqual(['leaders', 'legal']);
      const mailed = await db
        .selectFrom('outgoing_mail')
        .select('recipient')
        .where('reference', '=', `approval:${request.id}`)
        .execute();
      expect(mailed.map((m) => m.recipient)).toContain(LEGAL);
      expect(mailed.map((m) => m.recipient)).not.toContain(LEITUNG);
      // Legal got the mail: they may decide now, not in two working days.
      const seen: ApprovalRequest = (
        await t.app.inject({ method: 'GET', url: `/backend/approvals/${request.id}`, headers: as(LEGAL) })
      ).json();
      expect(seen.mayDecide).toBe(true);
      // Everyone was mailed with the request: the escalation run has nobody left to tell.
      const requests = new ApprovalRequests({
        db,
        rules: new ApprovalRulesStore(db, new AuditLog(db)),
        evaluation: new ApprovalEvaluation(db, source),
        envelopes: new EnvelopesRepository(db),
        outbox: new MailOutbox(db, t.mailer, 'support@demo.local'),
        publicUrl: 'https://vg.test',
      });
      await requests.mailEscalations();
      const escalations = await db
        .selectFrom('outgoing_mail')
        .select('recipient')
        .where('reference', '=', `approval:${request.id}`)
        .where('subject', 'like', 'Freigabe wartet noch%')
        .execute();
      expect(escalations).toEqual([]);
      const approved = await approve(request.id, LEGAL);
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json().send).toMatchObject({ state: 'done' });
    } finally {
      await db.updateTable('users').set({ permission: 3 }).where('email', '=', LEITUNG2).execute();
    }
  });

  it('lets legal staff decide once the escalation is due, and mails them once', async () => {
    const { id, send: body } = await draft(THIN.matchId);
    const request: ApprovalRequest = (await ask(id, body)).json();
    expect(request.currentGroups).toEqual(['leaders']);
    expect((await approve(request.id, LEGAL)).statusCode).toBe(403);
    await db
      .updateTable('approval_requests')
      .set({ escalates_at: new Date(Date.now() - 1000) })
      .where('id', '=', request.id)
      .execute();
    const requests = new ApprovalRequests({
      db,
      rules: new ApprovalRulesStore(db, new AuditLog(db)),
      evaluation: new ApprovalEvaluation(db, source),
      envelopes: new EnvelopesRepository(db),
      outbox: new MailOutbox(db, t.mailer, 'support@demo.local'),
      publicUrl: 'https://vg.test',
    });
    expect(await requests.mailEscalations()).toBeGreaterThanOrEqual(1);
    expect(await requests.mailEscalations()).toBe(0);
    const escalations = await db
      .selectFrom('outgoing_mail')
      .select(['recipient', 'subject'])
      .where('reference', '=', `approval:${request.id}`)
      .where('subject', 'like', 'Freigabe wartet noch%')
      .execute();
    const told = escalations.map((m) => m.recipient);
    expect(told).toContain(LEGAL);
    expect(told).not.toContain(LEITUNG);
    expect(told).not.toContain(BERATER);
    const seen: ApprovalRequest = (
      await t.app.inject({ method: 'GET', url: `/backend/approvals/${request.id}`, headers: as(LEGAL) })
    ).json();
    expect(seen).toMatchObject({ mayDecide: true, currentGroups: ['leaders', 'legal'] });
    const approved = await approve(request.id, LEGAL);
    expect(approved.statusCode, approved.body).toBe(200);
    await expect.poll(() => invitations().length).toBe(1);
  });
});
