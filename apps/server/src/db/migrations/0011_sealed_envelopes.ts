import { type Kysely, sql } from 'kysely';

/**
 * Sealed PDFs of completed envelopes. `seal_certificate` holds the server's self-signed
 * seal, one row at most, made on the first start without SEAL_P12_FILE, so that every replica seals
 * with the same certificate. An envelope that completes is due for sealing (`seal_due_at`); the
 * sealer leases it like the mail outbox leases a message, stores the sealed PDF, and only then queues
 * the completion mail that carries it. A failed attempt is recorded and retried.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('seal_certificate')
    .addColumn('id', 'smallint', (c) => c.primaryKey().defaultTo(1).check(sql`id = 1`))
    .addColumn('p12', 'bytea', (c) => c.notNull())
    .addColumn('passphrase', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .alterTable('envelopes')
    .addColumn('sealed_pdf', 'bytea')
    .addColumn('sealed_sha256', 'text')
    /** When the next sealing attempt may start; null: nothing to seal (not completed, or sealed). */
    .addColumn('seal_due_at', 'timestamptz')
    .addColumn('seal_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('seal_error', 'text')
    .execute();
  await sql`create index envelopes_seal_due on envelopes (seal_due_at) where seal_due_at is not null`.execute(
    db,
  );
  // Prüfen finds a dropped PDF by its SHA-256.
  await sql`create index envelopes_sealed_sha256 on envelopes (sealed_sha256) where sealed_sha256 is not null`.execute(
    db,
  );
}
