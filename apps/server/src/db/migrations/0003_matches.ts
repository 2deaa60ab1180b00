import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('matches')
    .addColumn('match_id', 'text', (c) => c.primaryKey())
    .addColumn('record', 'jsonb', (c) => c.notNull())
    .addColumn('imported_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // No foreign key to matches: with an external CRM as match source that table stays empty.
  await db.schema
    .createTable('recent_matches')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
