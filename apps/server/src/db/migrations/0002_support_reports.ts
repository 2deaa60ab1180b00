import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('support_reports')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('reporter_email', 'text', (c) => c.notNull())
    .addColumn('reporter_name', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('match_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('mailed_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('support_reports_pending')
    .on('support_reports')
    .column('next_attempt_at')
    .where(sql.ref('mailed_at'), 'is', null)
    .execute();
}
