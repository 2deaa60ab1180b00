import { type Kysely, sql } from 'kysely';

/**
 * Reminders of running contracts and the personal calendar feed of their deadlines.
 * `contract_reminder_settings`: the administrators' lead times per company (days before the last day to
 * give notice and before the end); a company without a row keeps the defaults. `contract_reminders`:
 * one row per reminder sent, unique per contract, deadline kind and day, so that each reminder goes out
 * once however many replicas run and however often a run is cut short; a deadline that moves is a new
 * day and so a new reminder. Kind `ended` marks the contract's end announced (`contract.ended`).
 * `calendar_feeds`: a user's subscribe link, only its SHA-256 kept; gone with the user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('contract_reminder_settings')
    .addColumn('company', 'text', (c) => c.primaryKey().check(sql`company in ('wm', 'we', 'wp')`))
    .addColumn('notice_days', 'integer', (c) => c.notNull().check(sql`notice_days between 1 and 365`))
    .addColumn('end_days', 'integer', (c) => c.notNull().check(sql`end_days between 1 and 365`))
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('contract_reminders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('contract_id', 'uuid', (c) => c.notNull().references('contract_records.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('notice', 'end', 'ended')`))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('contract_reminders_once')
    .unique()
    .on('contract_reminders')
    .columns(['contract_id', 'kind', 'day'])
    .execute();
  await db.schema
    .createTable('calendar_feeds')
    .addColumn('user_email', 'text', (c) =>
      c.primaryKey().references('users.email').onDelete('cascade').onUpdate('cascade'),
    )
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
