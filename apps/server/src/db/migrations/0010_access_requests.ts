import { type Kysely, sql } from 'kysely';

/**
 * Access requests: a signed-in user without a level asks Team-Operations from /login. One
 * open request per person at most (the partial unique index), so a second click stores nothing.
 * `users.version` counts administrative changes of an entry, so that two administrators changing the
 * same person at once cannot overwrite each other unseen (a sign-in does not count).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('access_requests')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    /** open, granted or declined. */
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'timestamptz')
    /** The level granted (1–3) or the reason of a refusal. */
    .addColumn('decision', 'text')
    .execute();
  await sql`create unique index access_requests_one_open on access_requests (email) where status = 'open'`.execute(
    db,
  );
  await db.schema
    .createIndex('access_requests_email')
    .on('access_requests')
    .columns(['email', 'requested_at'])
    .execute();
}
