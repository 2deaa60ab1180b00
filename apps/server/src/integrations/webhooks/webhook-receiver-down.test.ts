import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../admin/audit-log.js';
import type { Db } from '../../db/database.js';
import type { OutgoingMail } from '../../mail/mail-outbox.js';
import { testDatabases } from '../../test/databases.js';
import { recordedEnvelope, SYSTEM_ACTOR } from '../../test/recorded-envelope.js';
import { registerReceiver, testWebhookOutbox } from '../../test/webhook-outbox-fixture.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.js';
import { WebhookEndpoints } from './webhook-endpoints.js';
import { WebhookEventSink } from './webhook-events.js';

const HOUR = 3600_000;

describe.each(testDatabases())('a webhook receiver down for a day on $name', (database) => {
  let db: Db;
  let receiver: WebhookReceiver | undefined;

  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(async () => {
    await db.destroy();
  });
  afterEach(async () => {
    await receiver?.close();
  });

  it('gets the envelope’s events in order and each once when it is back on its address, the attempts while down logged without a status', async () => {
    const endpoints = new WebhookEndpoints(db, new AuditLog(db), true);
    const sink = new WebhookEventSink('https://vertrag.example');
    const mails: OutgoingMail[] = [];
    const down = await startWebhookReceiver();
    const endpointId = await registerReceiver(endpoints, down, [
      'envelope.sent',
      'envelope.signed',
      'envelope.voided',
    ]);
    const { secret } = await db
      .selectFrom('webhook_endpoints')
      .select('secret')
      .where('id', '=', endpointId)
      .executeTakeFirstOrThrow();
    await down.close();

    const { id, envelopes } = await recordedEnvelope(db, sink);
    const [recipient] = await envelopes.recipients(id);
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
      detail: 'Neuer Vertrag',
    });

    // Tried every hour for a day, as a replica's run would after the pauses have grown; nothing answers.
    const t0 = new Date(Date.now() + 1000);
    const webhooks = testWebhookOutbox(db, mails);
    for (let hour = 0; hour < 24; hour++)
      expect(await webhooks.deliverDue(new Date(t0.getTime() + hour * HOUR))).toBe(0);

    receiver = await startWebhookReceiver({ port: down.port });
    receiver.useSecret(secret);
    const back = new Date(t0.getTime() + 24 * HOUR);
    expect(await webhooks.deliverDue(back)).toBe(3);
    expect(receiver.refused).toEqual([]);
    expect(receiver.verified.map((v) => v.type)).toEqual([
      'envelope.sent',
      'envelope.signed',
      'envelope.voided',
    ]);
    expect(receiver.verified.every((v) => v.data.envelopeId === id)).toBe(true);
    expect(new Set(receiver.verified.map((v) => v.id)).size).toBe(3);
    // Delivered is delivered: later runs send nothing again.
    expect(await webhooks.deliverDue(new Date(back.getTime() + 24 * HOUR))).toBe(0);
    expect(receiver.requests).toHaveLength(3);

    const deliveries = await endpoints.deliveries(endpointId);
    expect(deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
    const attempts = deliveries.flatMap((d) => d.attempts).sort((a, b) => a.at.localeCompare(b.at));
    const whileDown = attempts.filter((a) => Date.parse(a.at) < back.getTime());
    // Only the first event was tried while down: the later ones waited for it.
    expect(whileDown).toHaveLength(24);
    for (const attempt of whileDown) {
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toMatch(/ECONNREFUSED/);
    }
    expect(attempts.slice(24).map((a) => [a.statusCode, a.error])).toEqual([
      [204, null],
      [204, null],
      [204, null],
    ]);
    expect(mails).toEqual([]);
  });
});
