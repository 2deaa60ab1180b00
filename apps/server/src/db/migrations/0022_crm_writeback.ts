import { type Kysely, sql } from 'kysely';

/**
 * The CRM told what became of its deal. Its write-backs are deliveries of the webhooks' events
 * (`webhook_events`, written in the transaction of the fact) to a second kind of target: `target` is
 * `endpoint` for a registered receiver or `crm` for the configured CRM, which has no endpoint row.
 * `progress` keeps the steps of a write-back already done (the Salesforce file's id), so that an
 * attempt after a crash does not upload the file again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_deliveries')
    .alterColumn('endpoint_id', (c) => c.dropNotNull())
    .execute();
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('target', 'text', (c) => c.notNull().defaultTo('endpoint'))
    .execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('progress', 'jsonb').execute();
  await db.schema
    .alterTable('webhook_deliveries')
    .addCheckConstraint(
      'webhook_deliveries_target',
      sql`(target = 'endpoint' and endpoint_id is not null) or (target = 'crm' and endpoint_id is null)`,
    )
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_crm_order')
    .on('webhook_deliveries')
    .columns(['ordering_key', 'id'])
    .where(sql.ref('target'), '=', 'crm')
    .execute();
}
