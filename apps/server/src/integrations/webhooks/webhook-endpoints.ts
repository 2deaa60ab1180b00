import { randomBytes } from 'node:crypto';
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointCreated,
  type WebhookEventType,
} from '@vertragsgenerator/domain';
import { type Selectable, sql } from 'kysely';
import type { AuditLog } from '../../admin/audit-log.js';
import type { Db } from '../../db/database.js';
import type { WebhookEndpointsTable } from '../../db/schema.js';
import { HttpError, notFound } from '../../shared/http-error.js';
import { checkTarget, TargetRefused, webhookUrl } from './target-address.js';
import { messageId } from './webhook-outbox.js';

/** A new signing secret as Standard Webhooks writes it: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const DELIVERIES_SHOWN = 50;

const invalidUrl = (message: string) => new HttpError(400, 'invalid_input', message, { url: [message] });

const endpointNotFound = () => notFound('Diesen Webhook-Empfänger gibt es nicht (mehr).');

/**
 * Webhook endpoints as administrators register them on /verwaltung → Integrationen: the address and
 * the events wanted, a secret shown once, active or paused, and each endpoint's deliveries with their
 * attempts. Every change is one transaction with its audit entry.
 */
export class WebhookEndpoints {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    private readonly allowPrivateTargets: boolean,
  ) {}

  async list(): Promise<WebhookEndpoint[]> {
    const rows = await this.db.selectFrom('webhook_endpoints').selectAll().orderBy('created_at').execute();
    const counts = await this.db
      .selectFrom('webhook_deliveries')
      .select([
        'endpoint_id',
        sql<string>`count(*) filter (where status = 'pending')`.as('pending'),
        sql<string>`count(*) filter (where status = 'failed')`.as('failed'),
      ])
      .groupBy('endpoint_id')
      .execute();
    return rows.map((row) => {
      const count = counts.find((c) => c.endpoint_id === row.id);
      return endpointView(row, Number(count?.pending ?? 0), Number(count?.failed ?? 0));
    });
  }

  /** Registers an endpoint; the answer carries its secret, which is never shown again. */
  async register(
    actor: string,
    input: { url: string; description: string; events: WebhookEventType[] },
  ): Promise<WebhookEndpointCreated> {
    let url: URL;
    try {
      url = webhookUrl(input.url);
      await checkTarget(url, this.allowPrivateTargets);
    } catch (error) {
      if (error instanceof TargetRefused) throw invalidUrl(error.message);
      throw error;
    }
    const events = WEBHOOK_EVENT_TYPES.filter((type) => input.events.includes(type));
    const secret = newWebhookSecret();
    const row = await this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('webhook_endpoints')
        .values({ url: url.href, description: input.description, events, secret, created_by: actor })
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.audit.record(
        { actor, action: 'webhook.register', subject: url.href, newValue: events.join(', ') },
        trx,
      );
      return inserted;
    });
    return { ...endpointView(row, 0, 0), secret };
  }

  /** Pauses or activates; a paused endpoint's events wait and go out once it is active again. */
  async setActive(actor: string, id: string, active: boolean): Promise<WebhookEndpoint> {
    await this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('webhook_endpoints')
        .select(['url', 'active'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!before) throw endpointNotFound();
      await trx.updateTable('webhook_endpoints').set({ active }).where('id', '=', id).execute();
      await this.audit.record(
        {
          actor,
          action: active ? 'webhook.activate' : 'webhook.pause',
          subject: before.url,
          oldValue: before.active ? 'aktiv' : 'pausiert',
          newValue: active ? 'aktiv' : 'pausiert',
        },
        trx,
      );
    });
    const endpoint = (await this.list()).find((e) => e.id === id);
    if (!endpoint) throw endpointNotFound();
    return endpoint;
  }

  /** Deletes an endpoint with its undelivered events: nothing more is sent there. */
  async delete(actor: string, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('webhook_endpoints')
        .where('id', '=', id)
        .returning(['url', 'events'])
        .executeTakeFirst();
      if (!deleted) throw endpointNotFound();
      await this.audit.record(
        { actor, action: 'webhook.delete', subject: deleted.url, oldValue: deleted.events.join(', ') },
        trx,
      );
    });
  }

  /** The newest deliveries of an endpoint, each with its attempts, oldest attempt first. */
  async deliveries(endpointId: string): Promise<WebhookDelivery[]> {
    const endpoint = await this.db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('id', '=', endpointId)
      .executeTakeFirst();
    if (!endpoint) throw endpointNotFound();
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
      .select([
        'webhook_deliveries.id',
        'webhook_deliveries.event_id',
        'webhook_deliveries.status',
        'webhook_deliveries.created_at',
        'webhook_deliveries.delivered_at',
        'webhook_deliveries.next_attempt_at',
        'webhook_events.type',
      ])
      .where('webhook_deliveries.endpoint_id', '=', endpointId)
      .orderBy('webhook_deliveries.id', 'desc')
      .limit(DELIVERIES_SHOWN)
      .execute();
    const attempts =
      rows.length === 0
        ? []
        : await this.db
            .selectFrom('webhook_attempts')
            .selectAll()
            .where(
              'delivery_id',
              'in',
              rows.map((r) => r.id),
            )
            .orderBy('id')
            .execute();
    // The embedded database answers a bigint as a number, PostgreSQL as a string.
    return rows.map((row) => ({
      id: String(row.id),
      messageId: messageId(row.event_id),
      type: row.type as WebhookEventType,
      status: row.status,
      createdAt: row.created_at.toISOString(),
      deliveredAt: row.delivered_at?.toISOString() ?? null,
      nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
      attempts: attempts
        .filter((a) => String(a.delivery_id) === String(row.id))
        .map((a) => ({
          at: a.at.toISOString(),
          statusCode: a.status_code,
          error: a.error,
          durationMs: a.duration_ms,
        })),
    }));
  }

  /**
   * `Erneut senden`: the delivery is due again at once, with three fresh days (a delivered one goes
   * out once more, with the same `webhook-id`, so receivers that drop repeats can tell).
   */
  async resend(actor: string, deliveryId: string, now: Date = new Date()): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', attempts: 0, first_attempt_at: null, next_attempt_at: now, lease: null })
        .where('id', '=', deliveryId)
        // The CRM's write-backs share the table; they are no endpoint's to send again.
        .where('target', '=', 'endpoint')
        .returning(['endpoint_id', 'event_id'])
        .executeTakeFirst();
      if (!updated)
        throw notFound(
          'Diese Zustellung gibt es nicht (mehr): eine Aufbewahrungsregel hat sie gelöscht. Lade die Liste der Zustellungen neu; ein neues Ereignis wird wieder zugestellt.',
        );
      const endpoint = await trx
        .selectFrom('webhook_endpoints')
        .select('url')
        .where('id', '=', updated.endpoint_id)
        .executeTakeFirstOrThrow();
      await this.audit.record(
        { actor, action: 'webhook.resend', subject: endpoint.url, newValue: messageId(updated.event_id) },
        trx,
      );
    });
  }
}

function endpointView(
  row: Selectable<WebhookEndpointsTable>,
  pending: number,
  failed: number,
): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events.filter((e): e is WebhookEventType =>
      (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e),
    ),
    active: row.active,
    failingSince: row.failing_since?.toISOString() ?? null,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    pending,
    failed,
  };
}
