import { type Kysely, sql } from 'kysely';

/**
 * Team-Operations: the administrator capability beside the permission levels, the last
 * sign-in shown in the staff list, and the audit log of every administrative change. The audit log is
 * append-only: the application never updates or deletes a row of it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('administrator', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_at', 'timestamptz').execute();
  await db.schema
    .createTable('audit_entries')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    /** E-mail of who made the change; `cli:<os user>` for the command-line tools. */
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    /** Whom or what the change is about: an e-mail, a template, an import file. */
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('old_value', 'text')
    .addColumn('new_value', 'text')
    .execute();
  await db.schema.createIndex('audit_entries_at').on('audit_entries').column('at').execute();
}
