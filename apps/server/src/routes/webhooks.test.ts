import type { DataList, WebhookEndpoint, WebhookEndpointCreated } from '@vertragsgenerator/domain';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { DocumentsRepository } from '../documents/documents-repository.js';
import { WebhookEventSink } from '../integrations/webhooks/webhook-events.js';
import { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { testDatabases } from '../test/databases.js';
import { eventually } from '../test/eventually.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';

const OPS = 'ops@demo.local';

describe.each(testDatabases())('webhook endpoints on /verwaltung on $name', (database) => {
  let db: Db;
  /** Private targets allowed, as tests need for a receiver on loopback. */
  let t: TestApp;
  /** As in production: private targets refused. */
  let strict: TestApp;
  let ops: string;
  let receiver: WebhookReceiver;

  const call = (
    app: TestApp,
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => app.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    db = await database.open();
    t = await createTestApp(db, { demoStaff: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    strict = await createTestApp(db, { demoStaff: true });
    ops = await t.signIn(OPS);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await strict.app.close();
    await t.app.close();
    await db.destroy();
  });

  it('registers an endpoint and shows its whsec_ secret once, with an audit entry', async () => {
    const response = await call(t, ops, 'POST', '/backend/admin/webhooks', {
      url: receiver.url,
      description: 'CRM',
      events: ['envelope.completed', 'document.generated'],
    });
    expect(response.statusCode, response.body).toBe(201);
    const created: WebhookEndpointCreated = response.json();
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // In the catalogue's order, whatever the order asked.
    expect(created).toMatchObject({
      url: receiver.url,
      active: true,
      events: ['document.generated', 'envelope.completed'],
    });
    const list = await call(t, ops, 'GET', '/backend/admin/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.secret);
    expect(list.json()).toEqual([
      expect.objectContaining({ id: created.id, createdBy: OPS, pending: 0, failed: 0 }),
    ]);
    const audit = await call(t, ops, 'GET', '/backend/admin/audit');
    expect(audit.json().entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'webhook.register', subject: receiver.url, actor: OPS }),
      ]),
    );
  });

  it.each([
    ['no events', { url: 'https://crm.example.com/hooks', events: [] }, 'events', 'mindestens ein Ereignis'],
    [
      'an unknown event',
      { url: 'https://crm.example.com/hooks', events: ['envelope.eaten'] },
      'events.0',
      'gibt es nicht',
    ],
    ['not a URL', { url: 'crm.example.com', events: ['envelope.sent'] }, 'url', 'keine gültige Adresse'],
    ['ftp', { url: 'ftp://crm.example.com/', events: ['envelope.sent'] }, 'url', 'http:// oder https://'],
    [
      'credentials in the URL',
      { url: 'https://a:b@crm.example.com/', events: ['envelope.sent'] },
      'url',
      'Zugangsdaten',
    ],
  ])('refuses %s with 400 naming the field', async (_case, payload, field, words) => {
    const response = await call(t, ops, 'POST', '/backend/admin/webhooks', payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fields[field].join(' ')).toContain(words);
  });

  it.each([
    'http://127.0.0.1:8080/hooks',
    'http://localhost/hooks',
    'http://10.1.2.3/hooks',
    'http://192.168.0.10/hooks',
    'http://172.16.5.4/hooks',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hooks',
    'http://[fe80::1]/hooks',
    'http://[fd00::1]/hooks',
    'http://[::ffff:127.0.0.1]/hooks',
    'http://0.0.0.0/hooks',
  ])('refuses the internal address %s unless WEBHOOK_ALLOW_PRIVATE_TARGETS', async (url) => {
    const token = await strict.signIn(OPS);
    const response = await call(strict, token, 'POST', '/backend/admin/webhooks', {
      url,
      events: ['envelope.sent'],
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().fields.url.join(' ')).toContain('interne Adresse');
  });

  it('refuses staff who are no administrators', async () => {
    const legal = await t.signIn('legal@demo.local');
    const response = await call(t, legal, 'POST', '/backend/admin/webhooks', {
      url: receiver.url,
      events: ['envelope.sent'],
    });
    expect(response.statusCode).toBe(403);
  });

  it('pauses, activates and deletes an endpoint, each an audit entry; unknown ids are 404', async () => {
    const created: WebhookEndpointCreated = (
      await call(t, ops, 'POST', '/backend/admin/webhooks', {
        url: `${receiver.url}/2`,
        events: ['envelope.sent'],
      })
    ).json();
    const paused = await call(t, ops, 'PUT', `/backend/admin/webhooks/${created.id}/active`, {
      active: false,
    });
    expect(paused.statusCode, paused.body).toBe(200);
    expect((paused.json() as WebhookEndpoint).active).toBe(false);
    const badBody = await call(t, ops, 'PUT', `/backend/admin/webhooks/${created.id}/active`, {
      active: 'ja',
    });
    expect(badBody.statusCode).toBe(400);
    expect(
      (await call(t, ops, 'PUT', `/backend/admin/webhooks/${created.id}/active`, { active: true })).json()
        .active,
    ).toBe(true);
    expect((await call(t, ops, 'DELETE', `/backend/admin/webhooks/${created.id}`)).statusCode).toBe(204);
    const again = await call(t, ops, 'DELETE', `/backend/admin/webhooks/${created.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toContain('gibt es nicht');
    const actions = (await call(t, ops, 'GET', '/backend/admin/audit'))
      .json()
      .entries.map((e: { action: string }) => e.action);
    expect(actions.slice(0, 4)).toEqual([
      'webhook.delete',
      'webhook.activate',
      'webhook.pause',
      'webhook.register',
    ]);
    expect((await call(t, ops, 'POST', '/backend/admin/webhooks/deliveries/999999/resend')).statusCode).toBe(
      404,
    );
    expect((await call(t, ops, 'GET', '/backend/admin/webhooks/not-an-id/deliveries')).statusCode).toBe(400);
  });

  it('lets a receiver fetch the sealed PDF it was told of, signed with its endpoint’s secret, and nothing else', async () => {
    const created: WebhookEndpointCreated = (
      await call(t, ops, 'POST', '/backend/admin/webhooks', {
        url: `${receiver.url}/pdf`,
        events: ['envelope.completed'],
      })
    ).json();
    const other: WebhookEndpointCreated = (
      await call(t, ops, 'POST', '/backend/admin/webhooks', {
        url: `${receiver.url}/other`,
        events: ['envelope.sent'],
      })
    ).json();
    // A sealed envelope, recorded as the sealer records it.
    const documentId = await new DocumentsRepository(db).create({
      matchId: 'PL-1',
      docKey: 'de-wm-pp-rv',
      form: 'docusign',
      createdBy: OPS,
      fileName: 'Vertrag PL-1.docx',
      dataList: {} as DataList,
      dataSha256: 'a'.repeat(64),
    });
    const { id: envelopeId } = await new EnvelopesRepository(db).create({
      documentId,
      documentVersion: 1,
      documentSha256: 'b'.repeat(64),
      matchId: 'PL-1',
      customer: 'Kunde',
      docKey: 'de-wm-pp-rv',
      provider: 'builtin',
      subject: 'Vertrag',
      message: '',
      sender: { name: 'Ops', email: OPS },
      recipients: [{ role: 'Projektpartner', name: 'P', email: 'p@partner.example', routingOrder: 1 }],
      createdBy: { email: OPS, ip: null, userAgent: null },
      requestKey: null,
    });
    const pdf = Buffer.from('%PDF-1.7 versiegelt');
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('envelopes')
        .set({ status: 'completed', sealed_pdf: pdf })
        .where('id', '=', envelopeId)
        .execute();
      await new WebhookEventSink('http://localhost').record(
        { kind: 'envelope.sealed', envelopeId, sha256: 'c'.repeat(64) },
        trx,
      );
    });
    const fetch = (endpoint: WebhookEndpointCreated, id = envelopeId, signedId = id) => {
      const at = new Date();
      return t.app.inject({
        method: 'GET',
        url: `/backend/webhooks/envelopes/${id}/sealed-pdf`,
        headers: {
          'webhook-endpoint': endpoint.id,
          'webhook-id': signedId,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': new Webhook(endpoint.secret).sign(signedId, at, ''),
        },
      });
    };
    const answer = await fetch(created);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.rawPayload).toEqual(pdf);
    // Another endpoint's valid signature: it was not told of this envelope.
    expect((await fetch(other)).statusCode).toBe(404);
    // Signed for another envelope id than the one asked for.
    const wrongId = await fetch(created, envelopeId, '00000000-0000-4000-8000-000000000000');
    expect(wrongId.statusCode).toBe(401);
    const unsigned = await t.app.inject({
      method: 'GET',
      url: `/backend/webhooks/envelopes/${envelopeId}/sealed-pdf`,
    });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toMatchObject({ error: 'unauthorized' });
    const staff = await t.app.inject({
      method: 'GET',
      url: `/backend/webhooks/envelopes/${envelopeId}/sealed-pdf`,
      headers: bearer(ops),
    });
    expect(staff.statusCode).toBe(401);
  });

  it('Erneut senden: a delivered event goes out again with the same webhook-id', async () => {
    const created: WebhookEndpointCreated = (
      await call(t, ops, 'POST', '/backend/admin/webhooks', {
        url: `${receiver.url}/again`,
        events: ['template.published'],
      })
    ).json();
    receiver.useSecret(created.secret);
    await db
      .transaction()
      .execute((trx) =>
        new WebhookEventSink('http://localhost').record(
          { kind: 'template.published', name: 'vertrag-de', version: 9, publishedBy: OPS },
          trx,
        ),
      );
    const arrived = (count: number) =>
      eventually(`${count} deliveries of the event`, () => {
        const events = receiver.verified.filter((v) => v.data.version === 9);
        return events.length >= count ? events : undefined;
      });
    // Nothing starts a run for an event recorded outside the app: the resend route does.
    const [delivery] = (await call(t, ops, 'GET', `/backend/admin/webhooks/${created.id}/deliveries`)).json();
    const resent = await call(t, ops, 'POST', `/backend/admin/webhooks/deliveries/${delivery.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(204);
    expect(await arrived(1)).toHaveLength(1);
    // The receiver has the event before the outbox records its answer: wait for the record, so that
    // what is sent again is a delivered event.
    const deliveryAfter = async () =>
      (await call(t, ops, 'GET', `/backend/admin/webhooks/${created.id}/deliveries`)).json()[0];
    const recorded = () =>
      eventually('the delivery recorded', async () => {
        const after = await deliveryAfter();
        return after.status === 'pending' ? undefined : after;
      });
    expect((await recorded()).status).toBe('delivered');
    expect(
      (await call(t, ops, 'POST', `/backend/admin/webhooks/deliveries/${delivery.id}/resend`)).statusCode,
    ).toBe(204);
    const twice = await arrived(2);
    expect(twice).toHaveLength(2);
    expect(twice[0]?.id).toBe(twice[1]?.id);
    const after = await recorded();
    expect(after.status).toBe('delivered');
    expect(after.attempts.length).toBeGreaterThanOrEqual(1);
  });
});
