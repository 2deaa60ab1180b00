import { join } from 'node:path';
import type { CrmWritebacks, ResolvedMatch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { MatchStore } from '../matches/match-store.js';
import { richestDemoMatch } from '../templates/samples.js';
import { type CrmReceiver, startCrmReceiver } from '../test/crm-receiver.js';
import { testDatabases } from '../test/databases.js';
import { sentPartnerEnvelope } from '../test/partner-envelope.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
const match: ResolvedMatch = await richestDemoMatch(join(configDir, 'demo-matches.json'));
const OPS = 'ops@demo.local';

describe.each(testDatabases())('CRM write-backs given up, on /verwaltung on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let receiver: CrmReceiver;
  let ops: string;

  const call = (method: 'GET' | 'POST', url: string, token = ops) =>
    t.app.inject({ method, url, headers: bearer(token) });
  const givenUp = async (): Promise<CrmWritebacks> => {
    const response = await call('GET', '/backend/admin/crm-writebacks');
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  /** A write-back of `type` for envelope E in `status`, written as one transaction (no run sees it half done). */
  async function writeback(type: string, status: 'delivered' | 'failed', envelope: string): Promise<string> {
    return db.transaction().execute(async (trx) => {
      const event = await trx
        .insertInto('webhook_events')
        .values({ type, payload: JSON.stringify({ type, data: { matchId: 'PL-9', envelopeId: envelope } }) })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { id } = await trx
        .insertInto('webhook_deliveries')
        .values({
          event_id: event.id,
          endpoint_id: null,
          target: 'crm',
          ordering_key: `envelope:${envelope}`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('webhook_deliveries')
        .set({ status, last_error: status === 'failed' ? 'Das CRM lehnt die Meldung ab.' : null })
        .where('id', '=', id)
        .execute();
      return String(id);
    });
  }

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany([match]);
    receiver = await startCrmReceiver();
    t = await createTestApp(db, {
      demoStaff: true,
      env: {
        // Matches come from the database here; the CRM is the write-back's receiver.
        CRM_URL: 'http://127.0.0.1:9/deals/{matchId}',
        CRM_MAPPING_FILE: join(configDir, 'crm-mapping.example.json'),
        CRM_WRITEBACK_URL: `${receiver.url}/deals/{matchId}/vertragsstatus`,
        CRM_WRITEBACK_METHOD: 'PUT',
      },
    });
    ops = await t.signIn(OPS);
  });
  afterAll(async () => {
    await t.app.close();
    await receiver.close();
    await db.destroy();
  });

  it('lists a write-back the CRM refused; Erneut senden writes it, the history and the audit log say so', async () => {
    receiver.answers.push(403);
    const berater = await t.signIn('berater@demo.local');
    const envelope = await sentPartnerEnvelope(t, {
      token: berater,
      matchId: match.matchId,
      partner: { name: 'Paula Partner', email: 'paula.resend@partner.example' },
    });
    await vi.waitFor(async () => expect((await givenUp()).givenUp).toHaveLength(1), {
      timeout: 10_000,
      interval: 100,
    });
    const list = await givenUp();
    expect(list.configured).toBe(true);
    const [refused] = list.givenUp;
    expect(refused).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 'envelope.sent',
      status: 'Versendet',
      matchId: match.matchId,
      envelopeId: envelope.id,
      createdAt: expect.any(String),
      lastAttemptAt: expect.any(String),
      attempts: 1,
      reason: expect.stringContaining('Das CRM verweigert die Berechtigung'),
      superseded: false,
    });
    expect(receiver.received).toEqual([]);

    const resent = await call('POST', `/backend/admin/crm-writebacks/${refused?.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(204);
    // The outbox starts at once, without waiting for its next round.
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 5_000, interval: 50 });
    expect(receiver.received[0]).toMatchObject({
      method: 'PUT',
      path: `/deals/${encodeURIComponent(match.matchId)}/vertragsstatus`,
      body: { status: 'Versendet', envelopeId: envelope.id },
    });
    // The CRM has answered before the outbox records it: the history is read once it has.
    const history = () =>
      db
        .selectFrom('envelope_events')
        .select(['type', 'detail'])
        .where('envelope_id', '=', envelope.id)
        .where('type', 'in', ['crm_filed', 'crm_refused'])
        .orderBy('id')
        .execute();
    await vi.waitFor(
      async () => expect((await history()).map((h) => h.type)).toEqual(['crm_refused', 'crm_filed']),
      { timeout: 5_000, interval: 50 },
    );
    expect((await givenUp()).givenUp).toEqual([]);
    const audit = (await call('GET', '/backend/admin/audit')).json().entries;
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor: OPS,
          action: 'crm.writeback.resend',
          subject: `Match ${match.matchId}`,
          newValue: 'Versendet',
        }),
      ]),
    );

    // Filed now: nothing to send again, and nothing is sent twice.
    const again = await call('POST', `/backend/admin/crm-writebacks/${refused?.id}/resend`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'not_given_up',
      message: 'Diese CRM-Rückmeldung ist schon im CRM abgelegt.',
    });
  });

  it('refuses to send an older status again over a later one the CRM has; a given-up completion may go', async () => {
    const sent = await writeback('envelope.sent', 'failed', 'E-1');
    await writeback('envelope.signed', 'delivered', 'E-1');
    const completed = await writeback('envelope.completed', 'failed', 'E-2');
    const shown = (await givenUp()).givenUp.filter((w) => w.matchId === 'PL-9');
    expect(shown.map((w) => [w.id, w.status, w.superseded])).toEqual([
      [completed, 'Unterschrieben', false],
      [sent, 'Versendet', true],
    ]);
    const refused = await call('POST', `/backend/admin/crm-writebacks/${sent}/resend`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: 'superseded',
      message: expect.stringContaining('„Versendet“'),
    });
    const row = await db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('id', '=', sent)
      .executeTakeFirst();
    expect(row?.status).toBe('failed');
    // A server without a write-back lists it but cannot send it: due again, it would wait for ever.
    const without = await createTestApp(db, { demoStaff: true });
    try {
      const token = await without.signIn(OPS);
      const listed = await without.app.inject({
        method: 'GET',
        url: '/backend/admin/crm-writebacks',
        headers: bearer(token),
      });
      expect(listed.json()).toMatchObject({ configured: false });
      const refusedThere = await without.app.inject({
        method: 'POST',
        url: `/backend/admin/crm-writebacks/${completed}/resend`,
        headers: bearer(token),
      });
      expect(refusedThere.statusCode).toBe(409);
      expect(refusedThere.json()).toMatchObject({ error: 'crm_not_configured' });
    } finally {
      await without.app.close();
    }
    const resent = await call('POST', `/backend/admin/crm-writebacks/${completed}/resend`);
    expect(resent.statusCode, resent.body).toBe(204);
  });

  it('answers 404 for a write-back it does not know or a webhook delivery, 400 for no id, 403 for staff', async () => {
    const endpoint = await db
      .insertInto('webhook_endpoints')
      .values({ url: 'https://crm.example/h', events: ['envelope.sent'], secret: 'whsec_x', created_by: OPS })
      .returning('id')
      .executeTakeFirstOrThrow();
    const event = await db
      .insertInto('webhook_events')
      .values({ type: 'envelope.sent', payload: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const delivery = await db
      .insertInto('webhook_deliveries')
      .values({ event_id: event.id, endpoint_id: endpoint.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const id of ['999999999', String(delivery.id)]) {
      const response = await call('POST', `/backend/admin/crm-writebacks/${id}/resend`);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Diese CRM-Rückmeldung gibt es nicht (mehr).');
    }
    const malformed = await call('POST', '/backend/admin/crm-writebacks/abc/resend');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      fields: { deliveryId: ['Diese CRM-Rückmeldung gibt es nicht.'] },
    });
    const staff = await call('GET', '/backend/admin/crm-writebacks', await t.signIn('legal@demo.local'));
    expect(staff.statusCode).toBe(403);
  });
});
