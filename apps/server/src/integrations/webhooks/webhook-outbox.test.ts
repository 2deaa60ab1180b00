import { createHash } from 'node:crypto';
import type { WebhookEventType } from '@vertragsgenerator/domain';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../admin/audit-log.js';
import type { Db } from '../../db/database.js';
import { MailOutbox, type OutgoingMail } from '../../mail/mail-outbox.js';
import type { ProductEvent } from '../../shared/product-events.js';
import { LinkExpiries } from '../../signature/reminders/link-expiries.js';
import { EnvelopeSealer } from '../../signature/seal/envelope-sealer.js';
import { testDatabases } from '../../test/databases.js';
import { recordedEnvelope, SYSTEM_ACTOR } from '../../test/recorded-envelope.js';
import { registerReceiver, testWebhookOutbox, WEBHOOK_ADMIN } from '../../test/webhook-outbox-fixture.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import { UsersRepository } from '../../users/users-repository.js';
import { WebhookEndpoints } from './webhook-endpoints.js';
import { WebhookEventSink } from './webhook-events.js';
import { GIVE_UP_AFTER_SECONDS } from './webhook-outbox.js';

const ADMIN = WEBHOOK_ADMIN;
const seconds = (from: Date, s: number) => new Date(from.getTime() + s * 1000);

describe.each(testDatabases())('webhook deliveries on $name', (database) => {
  let db: Db;
  let receiver: WebhookReceiver;
  let endpoints: WebhookEndpoints;
  let sink: WebhookEventSink;
  let mails: OutgoingMail[];
  let endpointId: string;

  const outbox = (options: { allowPrivateTargets?: boolean; deadlineMs?: number } = {}) =>
    testWebhookOutbox(db, mails, options);

  const record = (event: ProductEvent) => db.transaction().execute((trx) => sink.record(event, trx));
  const publish = (version: number) =>
    record({ kind: 'template.published', name: 'vertrag-de', version, publishedBy: ADMIN });

  const register = (events: WebhookEventType[] = ['template.published']) =>
    registerReceiver(endpoints, receiver, events);

  /** A document and its envelope, recorded by the repositories as the product records them. */
  const envelope = () => recordedEnvelope(db, sink);

  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(async () => {
    await db.destroy();
  });
  beforeEach(async () => {
    await db.deleteFrom('webhook_endpoints').execute();
    await db.deleteFrom('webhook_events').execute();
    receiver = await startWebhookReceiver();
    endpoints = new WebhookEndpoints(db, new AuditLog(db), true);
    sink = new WebhookEventSink('https://vertrag.example');
    mails = [];
    endpointId = await register();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('signs each payload as Standard Webhooks does: the receiver verifies it with the standardwebhooks library', async () => {
    await publish(2);
    expect(await outbox().deliverDue(seconds(new Date(), 1))).toBe(1);
    expect(receiver.refused).toEqual([]);
    expect(receiver.verified).toEqual([
      {
        id: expect.stringMatching(/^msg_\d+$/),
        type: 'template.published',
        data: { template: 'vertrag-de', version: 2, publishedBy: ADMIN },
      },
    ]);
    const [delivery] = await endpoints.deliveries(endpointId);
    expect(delivery).toMatchObject({ status: 'delivered', messageId: receiver.verified[0]?.id });
    expect(delivery?.attempts).toEqual([expect.objectContaining({ statusCode: 204, error: null })]);
  });

  it('records nothing for an event no endpoint wants, and only for the endpoints that want it', async () => {
    await record({ kind: 'document.generated', documentId: '00000000-0000-0000-0000-000000000000' });
    expect(await db.selectFrom('webhook_events').selectAll().execute()).toEqual([]);
  });

  it('retries a receiver that answers 500 with growing pauses, logging each attempt', async () => {
    const failures = [500, 500];
    receiver.answerWith(() => ({ status: failures.shift() ?? 200 }));
    await publish(2);
    const t0 = seconds(new Date(), 1);
    const webhooks = outbox();
    expect(await webhooks.deliverDue(t0)).toBe(0);
    // 30 s after the first failure, 60 s after the second.
    expect(await webhooks.deliverDue(seconds(t0, 29))).toBe(0);
    expect(await webhooks.deliverDue(seconds(t0, 31))).toBe(0);
    expect(await webhooks.deliverDue(seconds(t0, 31 + 59))).toBe(0);
    expect(receiver.requests).toHaveLength(2);
    expect(await webhooks.deliverDue(seconds(t0, 31 + 61))).toBe(1);
    const [delivery] = await endpoints.deliveries(endpointId);
    expect(delivery?.status).toBe('delivered');
    expect(delivery?.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [500, 'HTTP 500: kaputt'],
      [500, 'HTTP 500: kaputt'],
      [200, null],
    ]);
    expect(delivery?.attempts.map((a) => a.at)).toEqual([
      t0.toISOString(),
      seconds(t0, 31).toISOString(),
      seconds(t0, 92).toISOString(),
    ]);
    expect(receiver.verified.map((v) => v.type)).toEqual(['template.published']);
  });

  it('keeps an envelope’s events in order: a later one waits while an earlier one is not delivered', async () => {
    await db.deleteFrom('webhook_endpoints').execute();
    endpointId = await register([
      'document.generated',
      'envelope.sent',
      'envelope.signed',
      'template.published',
    ]);
    const { id, envelopes } = await envelope();
    const [recipient] = await envelopes.recipients(id);
    await envelopes.addEvent({ envelopeId: id, type: 'sent', actor: SYSTEM_ACTOR });
    await envelopes.addEvent({
      envelopeId: id,
      recipientId: recipient?.id,
      type: 'signed',
      actor: SYSTEM_ACTOR,
    });
    await publish(3);
    // The receiver refuses the envelope's first event once.
    let refusedSent = false;
    receiver.answerWith((payload) => {
      if (payload?.type === 'envelope.sent' && !refusedSent) {
        refusedSent = true;
        return { status: 503 };
      }
      return { status: 200 };
    });
    const t0 = seconds(new Date(), 1);
    const webhooks = outbox();
    // The document and the template are not the envelope's: they go out; `signed` waits for `sent`.
    expect(await webhooks.deliverDue(t0)).toBe(2);
    expect(receiver.verified.map((v) => v.type)).toEqual(['document.generated', 'template.published']);
    expect(await webhooks.deliverDue(seconds(t0, 31))).toBe(2);
    expect(receiver.verified.map((v) => v.type)).toEqual([
      'document.generated',
      'template.published',
      'envelope.sent',
      'envelope.signed',
    ]);
    const signed = receiver.verified[3]?.data;
    expect(signed).toMatchObject({
      envelopeId: id,
      matchId: 'PL-4711',
      recipient: { name: 'Paula Partner', email: 'paula@partner.example', role: 'Projektpartner' },
    });
  });

  it('reports envelope.completed when the sealed PDF is stored, with its SHA-256 and its address', async () => {
    await db.deleteFrom('webhook_endpoints').execute();
    endpointId = await register(['envelope.completed']);
    const { id, envelopes } = await envelope();
    await db
      .updateTable('envelopes')
      .set({
        status: 'completed',
        completed_at: new Date(),
        certificate: new Uint8Array([1]),
        seal_due_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
    const pdf = Buffer.from('%PDF-1.7 versiegelt');
    const sealer = new EnvelopeSealer({
      db,
      envelopes,
      outbox: new MailOutbox(db, { send: async () => {} }, 'support@demo.local', { warn: () => {} }),
      seal: async () => ({ pdf, level: 'B-B', renewBy: null }),
      events: sink,
      log: { warn: () => {} },
    });
    // Nothing yet: the last signature alone does not report the completion.
    expect(await outbox().deliverDue(seconds(new Date(), 1))).toBe(0);
    expect(await sealer.sealDue()).toBe(1);
    expect(await outbox().deliverDue(seconds(new Date(), 1))).toBe(1);
    expect(receiver.verified).toEqual([
      expect.objectContaining({
        type: 'envelope.completed',
        data: expect.objectContaining({
          envelopeId: id,
          status: 'completed',
          sealedPdf: {
            sha256: createHash('sha256').update(pdf).digest('hex'),
            url: `https://vertrag.example/backend/webhooks/envelopes/${id}/sealed-pdf`,
          },
        }),
      }),
    ]);
  });

  it('gives up after three days: the endpoint is marked failing and the administrators are mailed once', async () => {
    await new UsersRepository(db).upsert({
      email: 'admin2@demo.local',
      name: 'Admin',
      permission: null,
      administrator: true,
    });
    receiver.answerWith(() => ({ status: 500 }));
    await publish(2);
    await publish(3);
    const t0 = seconds(new Date(), 1);
    const webhooks = outbox();
    // Every hour, as the pauses have grown to their most by then.
    for (let hour = 0; hour < 72; hour++) await webhooks.deliverDue(seconds(t0, hour * 3600));
    let [endpoint] = await endpoints.list();
    expect(endpoint).toMatchObject({ failingSince: null, pending: 2, failed: 0 });
    await webhooks.deliverDue(seconds(t0, GIVE_UP_AFTER_SECONDS));
    [endpoint] = await endpoints.list();
    expect(endpoint).toMatchObject({
      failingSince: seconds(t0, GIVE_UP_AFTER_SECONDS).toISOString(),
      failed: 2,
    });
    expect(mails.map((m) => m.to).sort()).toEqual(['admin2@demo.local', 'chefin@demo.local']);
    expect(mails[0]?.subject).toContain(receiver.url);
    expect(mails[0]?.text).toContain('Erneut senden');
    // Given up: no further attempts.
    const attempts = receiver.requests.length;
    expect(await webhooks.deliverDue(seconds(t0, GIVE_UP_AFTER_SECONDS + 7200))).toBe(0);
    expect(receiver.requests).toHaveLength(attempts);

    // The receiver is back; `Erneut senden` delivers, and the endpoint is no longer failing.
    receiver.answerWith(() => ({ status: 200 }));
    const deliveries = await endpoints.deliveries(endpointId);
    for (const delivery of deliveries) {
      await endpoints.resend(ADMIN, delivery.id, seconds(t0, GIVE_UP_AFTER_SECONDS + 7200));
    }
    expect(await webhooks.deliverDue(seconds(t0, GIVE_UP_AFTER_SECONDS + 7200))).toBe(2);
    [endpoint] = await endpoints.list();
    expect(endpoint).toMatchObject({ failingSince: null, pending: 0, failed: 0 });
    expect(mails).toHaveLength(2);
    const audit = await new AuditLog(db).list({ limit: 10 });
    expect(audit.filter((e) => e.action === 'webhook.resend')).toHaveLength(2);
  });

  it('delivers again when „Erneut senden“ comes while the receiver is still answering the attempt before', async () => {
    await publish(2);
    const at = seconds(new Date(), 1);
    const [delivery] = await endpoints.deliveries(endpointId);
    if (!delivery) throw new Error('no delivery recorded');
    let resent = false;
    receiver.answerWith(async () => {
      // The first answer waits until the administrator's resend is committed.
      if (!resent) {
        resent = true;
        await endpoints.resend(ADMIN, delivery.id, at);
      }
      return { status: 204 };
    });
    expect(await outbox().deliverDue(at)).toBe(1);
    expect(receiver.requests).toHaveLength(2);
    const [after] = await endpoints.deliveries(endpointId);
    expect(after?.status).toBe('delivered');
    expect(after?.attempts.map((a) => a.statusCode)).toEqual([204, 204]);
  });

  it('delivers each event once with two replicas delivering at once', async () => {
    for (let version = 2; version < 8; version++) await publish(version);
    const at = seconds(new Date(), 1);
    const [first, second] = await Promise.all([outbox().deliverDue(at), outbox().deliverDue(at)]);
    expect((first ?? 0) + (second ?? 0)).toBe(6);
    expect(receiver.requests).toHaveLength(6);
    // Template events have no order among themselves: each arrived once.
    expect(receiver.verified.map((v) => v.data.version).sort()).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('keeps an envelope’s order with two replicas delivering at once', async () => {
    await db.deleteFrom('webhook_endpoints').execute();
    endpointId = await register([
      'approval.requested',
      'envelope.sent',
      'envelope.signed',
      'envelope.voided',
    ]);
    const { id, envelopes } = await envelope();
    const [recipient] = await envelopes.recipients(id);
    await envelopes.addEvent({ envelopeId: id, type: 'approval_requested', actor: SYSTEM_ACTOR });
    await envelopes.addEvent({ envelopeId: id, type: 'sent', actor: SYSTEM_ACTOR });
    await envelopes.addEvent({
      envelopeId: id,
      recipientId: recipient?.id,
      type: 'signed',
      actor: SYSTEM_ACTOR,
    });
    await envelopes.addEvent({
      envelopeId: id,
      type: 'voided',
      actor: SYSTEM_ACTOR,
      detail: 'Falscher Tagessatz',
    });
    const at = seconds(new Date(), 1);
    const replicas = [outbox(), outbox()];
    for (let round = 0; round < 4; round++) await Promise.all(replicas.map((r) => r.deliverDue(at)));
    expect(receiver.verified.map((v) => v.type)).toEqual([
      'approval.requested',
      'envelope.sent',
      'envelope.signed',
      'envelope.voided',
    ]);
    expect(receiver.verified[3]?.data).toMatchObject({ reason: 'Falscher Tagessatz' });
  });

  it('delivers envelope.declined with the signer and their reason, and envelope.expired with the signer whose link expired', async () => {
    await db.deleteFrom('webhook_endpoints').execute();
    endpointId = await register(['envelope.declined', 'envelope.expired']);
    const declined = await envelope();
    const [decliner] = await declined.envelopes.recipients(declined.id);
    await declined.envelopes.addEvent({
      envelopeId: declined.id,
      recipientId: decliner?.id,
      type: 'declined',
      actor: { ...SYSTEM_ACTOR, email: 'paula@partner.example' },
      detail: 'Der Stundensatz stimmt nicht.',
    });
    // The second envelope waits for its signer, whose link expired an hour ago.
    const waiting = await envelope();
    await db.updateTable('envelopes').set({ status: 'sent' }).where('id', '=', waiting.id).execute();
    await db
      .updateTable('envelope_recipients')
      .set({ status: 'sent', token_expires_at: seconds(new Date(), -3600) })
      .where('envelope_id', '=', waiting.id)
      .execute();
    expect(await new LinkExpiries({ db, envelopes: waiting.envelopes }).recordDue()).toBe(1);

    expect(await outbox().deliverDue(seconds(new Date(), 1))).toBe(2);
    expect(receiver.refused).toEqual([]);
    const signer = { name: 'Paula Partner', email: 'paula@partner.example', role: 'Projektpartner' };
    expect(receiver.verified.map((v) => [v.type, v.data.envelopeId])).toEqual([
      ['envelope.declined', declined.id],
      ['envelope.expired', waiting.id],
    ]);
    expect(receiver.verified[0]?.data).toMatchObject({
      matchId: 'PL-4711',
      reason: 'Der Stundensatz stimmt nicht.',
      recipient: { ...signer, id: decliner?.id, signedAt: null },
    });
    expect(receiver.verified[1]?.data).toMatchObject({
      matchId: 'PL-4711',
      status: 'sent',
      recipient: signer,
    });
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    receiver.answerWith(() => ({ redirect: `${receiver.origin}/elsewhere` }));
    await publish(2);
    expect(await outbox().deliverDue(seconds(new Date(), 1))).toBe(0);
    expect(receiver.requests).toEqual(['/hooks']);
    const [delivery] = await endpoints.deliveries(endpointId);
    expect(delivery?.status).toBe('pending');
    expect(delivery?.attempts[0]).toMatchObject({ statusCode: 302 });
    expect(delivery?.attempts[0]?.error).toContain('Weiterleitungen werden nicht verfolgt');
  });

  it('cuts off an answer whose body stalls at the deadline: a failed attempt', async () => {
    receiver.answerWith(() => 'stall');
    await publish(2);
    expect(await outbox({ deadlineMs: 300 }).deliverDue(seconds(new Date(), 1))).toBe(0);
    const [delivery] = await endpoints.deliveries(endpointId);
    expect(delivery?.status).toBe('pending');
    expect(delivery?.attempts[0]).toMatchObject({ statusCode: null });
    expect(delivery?.attempts[0]?.error).toContain('Keine vollständige Antwort');
  });

  it('refuses a private address again at delivery when private targets are not allowed', async () => {
    await publish(2);
    expect(await outbox({ allowPrivateTargets: false }).deliverDue(seconds(new Date(), 1))).toBe(0);
    expect(receiver.requests).toEqual([]);
    const [delivery] = await endpoints.deliveries(endpointId);
    expect(delivery?.attempts[0]?.error).toContain('interne Adresse');
  });

  it('holds the events of a paused endpoint and delivers them once it is active again', async () => {
    await endpoints.setActive(ADMIN, endpointId, false);
    await publish(2);
    const at = seconds(new Date(), 1);
    expect(await outbox().deliverDue(at)).toBe(0);
    expect(receiver.requests).toEqual([]);
    await endpoints.setActive(ADMIN, endpointId, true);
    expect(await outbox().deliverDue(at)).toBe(1);
    const actions = (await new AuditLog(db).list({ limit: 5 })).map((e) => e.action);
    expect(actions.slice(0, 3)).toEqual(['webhook.activate', 'webhook.pause', 'webhook.register']);
  });
});
