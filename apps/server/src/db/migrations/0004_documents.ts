import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // No foreign key to matches: with an external CRM as match source that table stays empty.
  await db.schema
    .createTable('documents')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('doc_key', 'text', (c) => c.notNull())
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('rendering', 'ready', 'failed')`))
    .addColumn('error', 'text')
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('template_sha256', 'text')
    .addColumn('data_sha256', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('documents_match')
    .on('documents')
    .columns(['match_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('document_versions')
    .addColumn('document_id', 'uuid', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 1`))
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('document_versions_pk', ['document_id', 'version'])
    .execute();
}
