import { dueBefore, type RetentionPeriod } from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { Database } from '../db/schema.js';
import { heldMatches } from './legal-holds.js';
import { auditDeletedBatch, recordDeletedRows } from './record-deletion.js';

/** The two rules of the webhooks' outbox: deliveries to registered endpoints, and write-backs to the CRM. */
export type DeliveryRule = 'webhook_deliveries' | 'crm_writebacks';

const TARGET: Record<DeliveryRule, 'endpoint' | 'crm'> = {
  webhook_deliveries: 'endpoint',
  crm_writebacks: 'crm',
};
const KIND: Record<DeliveryRule, string> = {
  webhook_deliveries: 'webhook_delivery',
  crm_writebacks: 'crm_writeback',
};
const NOUN: Record<DeliveryRule, [one: string, many: string]> = {
  webhook_deliveries: ['Webhook-Zustellung', 'Webhook-Zustellungen'],
  crm_writebacks: ['CRM-Rückmeldung', 'CRM-Rückmeldungen'],
};

/**
 * Deletes up to `limit` deliveries of one target that were delivered or given up longer than the period
 * ago (given up: counted from the last attempt), with their attempts, and each event no delivery is
 * left of, in one transaction with a deletion record each and one audit entry. A delivery still due
 * (pending) stays; so does a given-up one that holds back a later event of its envelope to the same
 * endpoint (deleting it would send that one out of order), and anything of a held match.
 */
export async function deleteDeliveryBatch(
  trx: Kysely<Database>,
  audit: AuditLog,
  rule: DeliveryRule,
  period: RetentionPeriod,
  now: Date,
  limit: number,
): Promise<number> {
  const target = TARGET[rule];
  const rows = await trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      sql<string | null>`e.payload->'data'->>'matchId'`.as('match_id'),
      sql<string>`encode(sha256(convert_to(e.payload::text, 'UTF8')), 'hex')`.as('sha256'),
    ])
    .where('d.target', '=', target)
    .where('d.status', 'in', ['delivered', 'failed'])
    .where(
      sql<Date>`coalesce(d.delivered_at, (select max(a.at) from webhook_attempts a where a.delivery_id = d.id), d.created_at)`,
      '<',
      dueBefore(now, period),
    )
    .where(sql<boolean>`coalesce(e.payload->'data'->>'matchId' not in ${heldMatches}, true)`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as later')
            .select('later.id')
            .where('later.status', '=', 'pending')
            .whereRef('later.endpoint_id', '=', 'd.endpoint_id')
            .whereRef('later.ordering_key', '=', 'd.ordering_key')
            .whereRef('later.id', '>', 'd.id')
            .where(sql.ref('d.status'), '=', 'failed'),
        ),
      ),
    )
    .orderBy('d.id')
    .limit(limit)
    .forUpdate('d')
    .skipLocked()
    .execute();
  if (rows.length === 0) return 0;
  await recordDeletedRows(
    trx,
    now,
    rule,
    KIND[rule],
    rows.map((row) => ({ subjectId: String(row.id), matchId: row.match_id, sha256: row.sha256 })),
  );
  await trx
    .deleteFrom('webhook_deliveries')
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  // The event holds the payload: it goes with its last delivery.
  await trx
    .deleteFrom('webhook_events as e')
    .where(
      'e.id',
      'in',
      rows.map((row) => row.event_id),
    )
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id'))),
    )
    .execute();
  const [one, many] = NOUN[rule];
  await auditDeletedBatch(trx, audit, rule, `${rows.length} ${rows.length === 1 ? one : many}`);
  return rows.length;
}

/**
 * Deletes up to `limit` events older than the period that no delivery is left of (their endpoint was
 * deleted with its undelivered events): nothing will send them, and their payloads name people.
 */
export async function deleteOrphanedEventBatch(
  trx: Kysely<Database>,
  audit: AuditLog,
  period: RetentionPeriod,
  now: Date,
  limit: number,
): Promise<number> {
  const rows = await trx
    .selectFrom('webhook_events as e')
    .select('e.id')
    .where('e.created_at', '<', dueBefore(now, period))
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id'))),
    )
    .where(sql<boolean>`coalesce(e.payload->'data'->>'matchId' not in ${heldMatches}, true)`)
    .orderBy('e.id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (rows.length === 0) return 0;
  await trx
    .deleteFrom('webhook_events')
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  await auditDeletedBatch(
    trx,
    audit,
    'webhook_deliveries',
    `${rows.length} ${rows.length === 1 ? 'Webhook-Ereignis' : 'Webhook-Ereignisse'} ohne Zustellung`,
  );
  return rows.length;
}
