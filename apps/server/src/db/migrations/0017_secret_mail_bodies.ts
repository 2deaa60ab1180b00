import type { Kysely } from 'kysely';

/**
 * Mails whose text holds a secret (a signer's one-time code) are marked: once delivered, their text is
 * replaced by a note, so the code does not outlive its ten minutes in the database and its backups.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('outgoing_mail')
    .addColumn('secret', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}
