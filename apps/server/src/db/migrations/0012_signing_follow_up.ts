import { type Kysely, sql } from 'kysely';

/**
 * Following up on envelopes: reminders, and the overview `/signaturen`.
 *
 * - `signing_link_key`: one row, made on the first start. A signer's link token is derived from it
 *   (HMAC of the recipient and the link's generation), so a reminder can carry the same link as the
 *   invitation while only the token's SHA-256 is stored with the recipient. `Link erneuern` counts the
 *   generation up, which makes every earlier link of that signer useless.
 * - `link_generation`: null for a link issued before this migration (a random token that cannot be
 *   derived again: its reminders point to the invitation mail).
 * - `reminder_due_at`: when the signer's next automatic reminder is due; null: none (signed, declined,
 *   not invited yet, or the last one before the link expires has gone out).
 * - `envelopes.customer`: the customer's name from the match when the envelope was made, so the
 *   overview can search by it without asking the CRM for 10,000 matches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signing_link_key')
    .addColumn('id', 'smallint', (c) => c.primaryKey().defaultTo(1).check(sql`id = 1`))
    .addColumn('key', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .alterTable('envelope_recipients')
    .addColumn('link_generation', 'integer')
    .addColumn('reminder_due_at', 'timestamptz')
    .execute();
  await sql`create index envelope_recipients_reminder_due on envelope_recipients (reminder_due_at) where reminder_due_at is not null`.execute(
    db,
  );
  await db.schema
    .alterTable('envelopes')
    .addColumn('customer', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // The built-in match store knows the customers of envelopes made before this migration.
  await sql`update envelopes set customer = coalesce(matches.record->>'kunde', '')
            from matches where matches.match_id = envelopes.match_id`.execute(db);
  // The overview: a user's envelopes newest first, and legal staff's view of all of them.
  await db.schema
    .createIndex('envelopes_created_by_updated')
    .on('envelopes')
    .columns(['created_by', 'updated_at desc', 'id'])
    .execute();
  await db.schema
    .createIndex('envelopes_updated')
    .on('envelopes')
    .columns(['updated_at desc', 'id'])
    .execute();
}
