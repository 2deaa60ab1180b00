import type { CrmWriteback, WebhookEventType } from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import type { AuditLog } from '../../admin/audit-log.js';
import type { Db } from '../../db/database.js';
import { HttpError, notFound } from '../../shared/http-error.js';
import { CRM_STATUSES } from './crm-writer.js';

const SHOWN = 50;

/**
 * A later write-back of the same envelope that reached the CRM: the given-up one is older news, and
 * sent now it would overwrite the newer status. The completion is the last news an envelope has.
 */
const supersededBy = sql<boolean>`(e.type <> 'envelope.completed' and exists (
  select 1 from webhook_deliveries later
  where later.target = 'crm' and later.ordering_key = d.ordering_key and later.id > d.id
    and later.status = 'delivered'))`;

/**
 * The CRM write-backs administrators look after on /verwaltung → Integrationen: those given up, and
 * `Erneut senden` for one of them, with its audit entry.
 */
export class CrmWritebacks {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
  ) {}

  /** The newest given-up write-backs, each with its last attempt and why it was given up. */
  async givenUp(): Promise<CrmWriteback[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select([
        'd.id',
        'd.attempts',
        'd.created_at',
        'd.last_error',
        'e.type',
        sql<string | null>`e.payload->'data'->>'matchId'`.as('match_id'),
        sql<string | null>`e.payload->'data'->>'envelopeId'`.as('envelope_id'),
        sql<Date | null>`(select max(a.at) from webhook_attempts a where a.delivery_id = d.id)`.as(
          'last_attempt_at',
        ),
        supersededBy.as('superseded'),
      ])
      .where('d.target', '=', 'crm')
      .where('d.status', '=', 'failed')
      .orderBy('d.id', 'desc')
      .limit(SHOWN)
      .execute();
    // The embedded database answers a bigint as a number, PostgreSQL as a string; a timestamp of a
    // subquery as a string on both.
    return rows.map((row) => ({
      id: String(row.id),
      type: row.type as WebhookEventType,
      status: CRM_STATUSES[row.type as WebhookEventType] ?? row.type,
      matchId: row.match_id ?? '',
      envelopeId: row.envelope_id,
      createdAt: row.created_at.toISOString(),
      lastAttemptAt: row.last_attempt_at ? new Date(row.last_attempt_at).toISOString() : null,
      attempts: row.attempts,
      reason: row.last_error,
      superseded: Boolean(row.superseded),
    }));
  }

  /**
   * `Erneut senden`: a given-up write-back is due again at once, with three fresh days. Its steps
   * already done stay (a file uploaded is not uploaded twice), and so does its last error, so that
   * the envelope's history tells once it has arrived.
   */
  async resend(actor: string, deliveryId: string, now: Date = new Date()): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .select([
          'd.status',
          'e.type',
          sql<string | null>`e.payload->'data'->>'matchId'`.as('match_id'),
          supersededBy.as('superseded'),
        ])
        .where('d.id', '=', deliveryId)
        .where('d.target', '=', 'crm')
        .forUpdate('d')
        .executeTakeFirst();
      if (!row) throw notFound('Diese CRM-Rückmeldung gibt es nicht (mehr).');
      if (row.status !== 'failed')
        throw new HttpError(
          409,
          'not_given_up',
          row.status === 'pending'
            ? 'Diese CRM-Rückmeldung wird schon gesendet.'
            : 'Diese CRM-Rückmeldung ist schon im CRM abgelegt.',
        );
      const status = CRM_STATUSES[row.type as WebhookEventType] ?? row.type;
      if (row.superseded)
        throw new HttpError(
          409,
          'superseded',
          `Ein späterer Stand dieses Umschlags ist schon im CRM abgelegt: Erneut gesendet würde „${status}“ ihn überschreiben.`,
        );
      await trx
        .updateTable('webhook_deliveries')
        // Without a lease: an attempt still under way records nothing over this resend.
        .set({ status: 'pending', attempts: 0, first_attempt_at: null, next_attempt_at: now, lease: null })
        .where('id', '=', deliveryId)
        .execute();
      await this.audit.record(
        {
          actor,
          action: 'crm.writeback.resend',
          subject: `Match ${row.match_id ?? ''}`,
          newValue: status,
        },
        trx,
      );
    });
  }
}
