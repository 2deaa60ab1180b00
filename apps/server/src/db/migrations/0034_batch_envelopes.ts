import { type Kysely, sql } from 'kysely';

/**
 * Serien of e-signature contracts. A batch keeps how its envelopes go out (`countersignatory`, null:
 * without; `send_message`, null for a batch of Word documents) and when its next invitation may be
 * mailed (`next_invitation_at`): invitations are spread at BATCH_INVITATIONS_PER_MINUTE. A deal keeps
 * its envelope (`batch_items.envelope_id`). A deal that needs Freigabe gets its own request, marked
 * with its batch (`approval_requests.batch_id`): the batch's requests are mailed and shown as one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('batches')
    .addColumn('countersignatory', 'text')
    .addColumn('send_message', 'text')
    .addColumn('next_invitation_at', 'timestamptz')
    .execute();
  await db.schema.alterTable('batch_items').addColumn('envelope_id', 'uuid').execute();
  await db.schema
    .alterTable('approval_requests')
    .addColumn('batch_id', 'uuid', (c) => c.references('batches.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('approval_requests_batch')
    .on('approval_requests')
    .columns(['batch_id', 'status'])
    .where(sql.ref('batch_id'), 'is not', null)
    .execute();
}
