import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import { DeletionRun } from './deletion-run.js';
import { RetentionRules } from './retention-rules.js';

const DAY = 24 * 60 * 60_000;
const quiet = { error() {}, warn() {}, info() {} } as never;
const NOW = new Date('2030-06-15T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

interface Delivery {
  target?: 'endpoint' | 'crm';
  status: 'pending' | 'delivered' | 'failed';
  matchId?: string;
  /** The envelope whose events go out in order. */
  envelope?: string;
  createdAt: Date;
  deliveredAt?: Date;
  /** When its attempts were made. */
  attempts?: Date[];
  /** Another delivery of the same event. */
  eventId?: string;
}

describe.each(testDatabases())('the deletion run and the webhooks’ outbox on $name', (database) => {
  let db: Db;
  let audit: AuditLog;
  let rules: RetentionRules;
  let endpointId: string;
  let now = NOW;
  const deleted: [string, string, number][] = [];
  const run = (batchSize = 100) =>
    new DeletionRun({
      db,
      audit,
      rules,
      log: quiet,
      now: () => now,
      batchSize,
      observer: { retentionDeleted: (rule, kind, n) => deleted.push([rule, kind, n]) },
    }).run();

  /** A delivery as the outbox leaves it: its event, its state, and an attempt row per attempt. */
  async function delivery(d: Delivery): Promise<{ id: string; eventId: string }> {
    const eventId =
      d.eventId ??
      (
        await db
          .insertInto('webhook_events')
          .values({
            type: 'envelope.signed',
            payload: JSON.stringify({
              type: 'envelope.signed',
              data: { matchId: d.matchId ?? 'PL-1', recipient: { email: 'paula@partner.example' } },
            }),
            created_at: d.createdAt,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const target = d.target ?? 'endpoint';
    const { id } = await db
      .insertInto('webhook_deliveries')
      .values({
        event_id: eventId,
        endpoint_id: target === 'endpoint' ? endpointId : null,
        target,
        ordering_key: `envelope:${d.envelope ?? 'E-1'}`,
        created_at: d.createdAt,
        next_attempt_at: d.status === 'pending' ? daysAgo(0) : d.createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (d.status !== 'pending')
      await db
        .updateTable('webhook_deliveries')
        .set({ status: d.status, delivered_at: d.deliveredAt ?? null })
        .where('id', '=', id)
        .execute();
    for (const at of d.attempts ?? [])
      await db
        .insertInto('webhook_attempts')
        .values({ delivery_id: id, at, status_code: 500, error: 'down', duration_ms: 3 })
        .execute();
    return { id: String(id), eventId: String(eventId) };
  }
  const remaining = async () =>
    (await db.selectFrom('webhook_deliveries').select('id').orderBy('id').execute()).map((r) => String(r.id));
  const events = async () =>
    (await db.selectFrom('webhook_events').select('id').orderBy('id').execute()).map((r) => String(r.id));

  beforeAll(async () => {
    db = await database.open();
    audit = new AuditLog(db);
    rules = new RetentionRules(db, audit, () => now);
  });
  afterAll(async () => {
    await db.destroy();
  });
  beforeEach(async () => {
    now = NOW;
    deleted.length = 0;
    for (const table of [
      'webhook_events',
      'webhook_endpoints',
      'legal_holds',
      'retention_runs',
      'retention_rules',
    ] as const)
      await db.deleteFrom(table).execute();
    endpointId = (
      await db
        .insertInto('webhook_endpoints')
        .values({
          url: 'https://crm.example/hooks',
          events: ['envelope.signed'],
          secret: 'whsec_x',
          created_by: 'ops@demo.local',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });

  it('deletes deliveries and write-backs 90 days after they arrived or were given up, never one still due', async () => {
    const deliveredOld = await delivery({
      status: 'delivered',
      createdAt: daysAgo(95),
      deliveredAt: daysAgo(91),
    });
    const deliveredNew = await delivery({
      status: 'delivered',
      createdAt: daysAgo(95),
      deliveredAt: daysAgo(89),
    });
    // Given up: counted from its last attempt, not from when it began.
    const failedOld = await delivery({
      status: 'failed',
      envelope: 'E-2',
      createdAt: daysAgo(200),
      attempts: [daysAgo(200), daysAgo(91)],
    });
    const failedNew = await delivery({
      status: 'failed',
      envelope: 'E-3',
      createdAt: daysAgo(200),
      attempts: [daysAgo(200), daysAgo(89)],
    });
    // Due for a year: still due, however old.
    const pendingOld = await delivery({
      status: 'pending',
      envelope: 'E-4',
      createdAt: daysAgo(365),
      attempts: [daysAgo(365)],
    });
    const crmOld = await delivery({
      target: 'crm',
      status: 'delivered',
      createdAt: daysAgo(100),
      deliveredAt: daysAgo(91),
    });
    const crmFailedOld = await delivery({
      target: 'crm',
      status: 'failed',
      createdAt: daysAgo(100),
      attempts: [daysAgo(95)],
    });
    const crmNew = await delivery({
      target: 'crm',
      status: 'delivered',
      createdAt: daysAgo(10),
      deliveredAt: daysAgo(10),
    });

    expect(await run()).toEqual({ webhook_deliveries: 2, crm_writebacks: 2 });

    expect(await remaining()).toEqual([deliveredNew.id, failedNew.id, pendingOld.id, crmNew.id]);
    // With their attempts and the events no delivery is left of.
    const attemptsOf = await db.selectFrom('webhook_attempts').select('delivery_id').execute();
    expect(new Set(attemptsOf.map((a) => String(a.delivery_id)))).toEqual(
      new Set([failedNew.id, pendingOld.id]),
    );
    expect(await events()).toEqual([
      deliveredNew.eventId,
      failedNew.eventId,
      pendingOld.eventId,
      crmNew.eventId,
    ]);
    expect(deleted).toEqual([
      ['webhook_deliveries', 'webhook_delivery', 2],
      ['crm_writebacks', 'crm_writeback', 2],
    ]);
    const entries = (await audit.list({ limit: 10 })).filter((e) => e.action === 'retention.delete');
    expect(entries.map((e) => [e.actor, e.subject, e.newValue])).toEqual([
      ['system:aufbewahrung', 'CRM-Rückmeldungen', '2 CRM-Rückmeldungen'],
      ['system:aufbewahrung', 'Webhook-Zustellungen (mit ihren Versuchen)', '2 Webhook-Zustellungen'],
    ]);
    const records = await db
      .selectFrom('deletion_records')
      .select(['subject_id', 'rule', 'kind', 'match_id'])
      .where('rule', 'in', ['webhook_deliveries', 'crm_writebacks'])
      .execute();
    expect(records).toEqual(
      expect.arrayContaining([
        {
          subject_id: deliveredOld.id,
          rule: 'webhook_deliveries',
          kind: 'webhook_delivery',
          match_id: 'PL-1',
        },
        { subject_id: failedOld.id, rule: 'webhook_deliveries', kind: 'webhook_delivery', match_id: 'PL-1' },
        { subject_id: crmOld.id, rule: 'crm_writebacks', kind: 'crm_writeback', match_id: 'PL-1' },
        { subject_id: crmFailedOld.id, rule: 'crm_writebacks', kind: 'crm_writeback', match_id: 'PL-1' },
      ]),
    );

    // Two days later the next ones are due.
    now = new Date(NOW.getTime() + 2 * DAY);
    expect(await run()).toEqual({ webhook_deliveries: 2 });
    expect(await remaining()).toEqual([pendingOld.id, crmNew.id]);
  });

  it('keeps an event while another delivery of it is kept, and a given-up delivery that holds back a later one', async () => {
    const shared = await delivery({
      status: 'delivered',
      createdAt: daysAgo(120),
      deliveredAt: daysAgo(120),
    });
    const sharedCrm = await delivery({
      target: 'crm',
      status: 'pending',
      createdAt: daysAgo(120),
      eventId: shared.eventId,
    });
    // The envelope's later event waits behind the given-up one: deleting it would send the later one out of order.
    const blocking = await delivery({
      status: 'failed',
      envelope: 'E-9',
      createdAt: daysAgo(200),
      attempts: [daysAgo(197)],
    });
    const waiting = await delivery({ status: 'pending', envelope: 'E-9', createdAt: daysAgo(199) });

    expect(await run()).toEqual({ webhook_deliveries: 1 });
    expect(await remaining()).toEqual([sharedCrm.id, blocking.id, waiting.id]);
    expect(await events()).toEqual([shared.eventId, blocking.eventId, waiting.eventId]);

    // Once the later one arrived (after `Erneut senden` of the first), both go in their time.
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'delivered', delivered_at: daysAgo(100) })
      .where('id', 'in', [blocking.id, waiting.id])
      .execute();
    expect(await run()).toEqual({ webhook_deliveries: 2 });
    expect(await remaining()).toEqual([sharedCrm.id]);
  });

  it('keeps what names a held match, follows a changed period, and deletes in batches with an audit entry each', async () => {
    await db
      .insertInto('legal_holds')
      .values({
        match_id: 'PL-7',
        reason: 'Rechtsstreit',
        placed_by: 'ops@demo.local',
        placed_at: daysAgo(1),
      })
      .execute();
    const held = await delivery({
      matchId: 'PL-7',
      status: 'delivered',
      createdAt: daysAgo(400),
      deliveredAt: daysAgo(400),
    });
    for (let i = 0; i < 7; i++)
      await delivery({
        status: 'delivered',
        envelope: `E-${i}`,
        createdAt: daysAgo(40),
        deliveredAt: daysAgo(40),
      });
    // Nothing at 90 days.
    expect(await run()).toEqual({});
    await rules.change('ops@demo.local', 'webhook_deliveries', { value: 30, unit: 'days' });
    // Batches of five (the outbox's rows are small).
    expect(await run(1)).toEqual({ webhook_deliveries: 7 });
    expect(await remaining()).toEqual([held.id]);
    const entries = (await audit.list({ limit: 10 })).filter((e) => e.action === 'retention.delete');
    expect(entries.slice(0, 2).map((e) => e.newValue)).toEqual([
      '2 Webhook-Zustellungen',
      '5 Webhook-Zustellungen',
    ]);
  });

  it('deletes events of a deleted endpoint that no delivery is left of, once the period has passed', async () => {
    const old = await delivery({ status: 'pending', createdAt: daysAgo(91) });
    const recent = await delivery({ status: 'pending', envelope: 'E-2', createdAt: daysAgo(10) });
    await db.deleteFrom('webhook_endpoints').execute();
    expect(await remaining()).toEqual([]);
    expect(await run()).toEqual({ webhook_deliveries: 1 });
    expect(await events()).toEqual([recent.eventId]);
    expect(deleted).toEqual([['webhook_deliveries', 'webhook_event', 1]]);
    expect(old.eventId).not.toBe(recent.eventId);
  });
});
