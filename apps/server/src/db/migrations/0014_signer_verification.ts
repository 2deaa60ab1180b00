import { type Kysely, sql } from 'kysely';

/**
 * Signers of built-in signing confirm a code mailed to them before the document opens.
 *
 * - `envelopes.signer_code`: whether this envelope's signers are asked for a code (SIGNING_OTP
 *   `optional` lets the sender switch it off when sending; `required` and `off` override it). Envelopes
 *   from before this migration ask too: a link already mailed gets the code step on its next visit.
 * - `signer_codes`: one row per signer, for the link it names (`link_sha256`, the recipient's
 *   `token_sha256` when the code went out): a renewed link starts afresh. Only an HMAC of the code is
 *   kept, for as long as it works; `failed_attempts` counts wrong codes since the last lock or success,
 *   and `locked_until` ends the lock. `verified_at` is when the code was confirmed for that link.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('envelopes')
    .addColumn('signer_code', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema
    .createTable('signer_codes')
    .addColumn('recipient_id', 'uuid', (c) =>
      c.primaryKey().references('envelope_recipients.id').onDelete('cascade'),
    )
    .addColumn('link_sha256', 'text', (c) => c.notNull())
    .addColumn('code_hmac', 'text')
    .addColumn('code_sent_at', 'timestamptz')
    .addColumn('code_expires_at', 'timestamptz')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0).check(sql`failed_attempts >= 0`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('verified_at', 'timestamptz')
    .execute();
}
