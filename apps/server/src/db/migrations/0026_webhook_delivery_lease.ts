import type { Kysely } from 'kysely';

/**
 * The lease an attempt at a webhook delivery holds. An administrator's „Erneut senden“ clears it, so
 * that an attempt still waiting for the receiver's answer records that answer in the history only and
 * leaves the delivery pending for the new attempt, instead of marking the resent delivery delivered.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('lease', 'uuid').execute();
}
