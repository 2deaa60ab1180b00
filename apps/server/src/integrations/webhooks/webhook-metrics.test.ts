import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../admin/audit-log.js';
import type { Db } from '../../db/database.js';
import { Metrics } from '../../operations/metrics.js';
import { testDatabases } from '../../test/databases.js';
import { WebhookEndpoints } from './webhook-endpoints.js';
import { WebhookEventSink } from './webhook-events.js';

/** The value of one series in the Prometheus text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(testDatabases())('webhook metrics on $name', (database) => {
  let db: Db;

  beforeAll(async () => {
    db = await database.open();
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('counts undelivered deliveries by status and endpoint state, and passes promtool check metrics', async () => {
    const endpoints = new WebhookEndpoints(db, new AuditLog(db), true);
    const register = (path: string) =>
      endpoints.register('ops@demo.local', {
        url: `http://127.0.0.1:9/${path}`,
        description: '',
        events: ['template.published'],
      });
    const active = await register('aktiv');
    const paused = await register('pausiert');
    const failing = await register('fehlerhaft');
    await endpoints.setActive('ops@demo.local', paused.id, false);
    const sink = new WebhookEventSink('https://vertrag.example');
    for (const version of [2, 3]) {
      await db
        .transaction()
        .execute((trx) =>
          sink.record(
            { kind: 'template.published', name: 'vertrag-de', version, publishedBy: 'ops@demo.local' },
            trx,
          ),
        );
    }
    await db
      .updateTable('webhook_endpoints')
      .set({ failing_since: new Date() })
      .where('id', '=', failing.id)
      .execute();
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed' })
      .where('endpoint_id', '=', failing.id)
      .execute();
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'delivered' })
      .where('endpoint_id', '=', active.id)
      .where('event_id', '=', (qb) =>
        qb.selectFrom('webhook_events').select((eb) => eb.fn.min('id').as('id')),
      )
      .execute();

    const metrics = new Metrics({ db, renderQueueDepth: () => 0, databasePoolInUse: () => 0 });
    const text = await metrics.text();
    expect(sample(text, 'webhook_deliveries{status="pending",endpoint_state="active"}')).toBe(1);
    expect(sample(text, 'webhook_deliveries{status="pending",endpoint_state="paused"}')).toBe(2);
    expect(sample(text, 'webhook_deliveries{status="failed",endpoint_state="failing"}')).toBe(2);
    expect(sample(text, 'webhook_deliveries{status="pending",endpoint_state="failing"}')).toBe(0);
    const webhookLines = text
      .split('\n')
      .filter((line) => line.includes('webhook_deliveries'))
      .join('\n');
    const check = spawnSync('promtool', ['check', 'metrics'], {
      input: `${webhookLines}\n`,
      encoding: 'utf8',
    });
    if (check.error)
      throw new Error(`promtool is needed (apt-get install prometheus): ${check.error.message}`);
    expect(check.stderr.split('\n').filter(Boolean)).toEqual([]);
  });
});
