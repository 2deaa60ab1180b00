import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * Every erase on request (Art. 17 DSGVO): whom (an e-mail address or a full name), when and by whom, and
 * what a duty still kept then (`pending`: the signers of completed contracts, the matches under a legal
 * hold). The deletion run applies the erase to these once the duty ends — the contract's files deleted
 * by its rule, the hold lifted — and empties `pending` as it goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('person_erasures')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text')
    .addColumn('name', 'text')
    .addColumn('erased_at', 'timestamptz', (c) => c.notNull())
    .addColumn('erased_by', 'text', (c) => c.notNull())
    .addColumn('pending', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addCheckConstraint('person_erasures_whom', sql`(email is null) <> (name is null)`)
    .execute();
}
