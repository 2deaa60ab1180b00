import { type Kysely, sql } from 'kysely';

/**
 * Serien: one document for many deals. `batches` holds what its starter chose (the key and the values
 * for every deal); `batch_items` one row per deal with what the check said and where its run stands.
 * An item is worked under a lease (`lease`, `lease_until`): with several replicas one works it at a
 * time, and one that died holding it (SIGKILL) gives it up when the lease runs out.
 * `documents.batch_item_id` is unique: however often an item is tried, by however many replicas, it
 * gets one document.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('batches')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('doc_key', 'text', (c) => c.notNull())
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('checked', 'running', 'finished', 'cancelled')`),
    )
    .addColumn('values', 'jsonb', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('batches_created_by')
    .on('batches')
    .columns(['created_by', 'created_at'])
    .execute();
  await db.schema
    .createTable('batch_items')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('batch_id', 'uuid', (c) => c.notNull().references('batches.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('counterparty', 'text')
    .addColumn('values', 'jsonb', (c) => c.notNull())
    .addColumn('verdict', 'text', (c) => c.notNull().check(sql`verdict in ('ready', 'approval', 'cannot')`))
    .addColumn('reason', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(sql`status in ('waiting', 'running', 'done', 'approval', 'failed', 'cancelled', 'skipped')`),
    )
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease', 'uuid')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('document_id', 'uuid')
    .addColumn('finished_at', 'timestamptz')
    .addUniqueConstraint('batch_items_one_per_deal', ['batch_id', 'match_id'])
    .execute();
  await db.schema
    .createIndex('batch_items_batch')
    .on('batch_items')
    .columns(['batch_id', 'position'])
    .execute();
  // What the runners look for: the items waiting or held, by when their lease ends.
  await db.schema
    .createIndex('batch_items_due')
    .on('batch_items')
    .columns(['status', 'lease_until'])
    .where(sql.ref('status'), 'in', ['waiting', 'running'])
    .execute();
  await db.schema.alterTable('documents').addColumn('batch_item_id', 'uuid').execute();
  await db.schema
    .createIndex('documents_batch_item')
    .unique()
    .on('documents')
    .column('batch_item_id')
    .where('batch_item_id', 'is not', null)
    .execute();
}
