import { type Kysely, sql } from 'kysely';

/**
 * PAdES levels. Each sealed envelope records the level its PDF reached (`seal_level`: B-B without a
 * timestamp authority, B-LTA with one; null for DocuSign's own document) and, at B-LTA, when its last
 * document timestamp must be renewed (`seal_renew_at`), which the archive run leases like the sealer.
 * A renewal replaces `sealed_pdf`; `sealed_pdf_versions` keeps the SHA-256 of every version handed out,
 * so Prüfen still recognises a copy mailed before the renewal.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('envelopes')
    .addColumn('seal_level', 'text')
    .addColumn('seal_renew_at', 'timestamptz')
    .execute();
  await sql`create index envelopes_seal_renew on envelopes (seal_renew_at) where seal_renew_at is not null`.execute(
    db,
  );
  await db.schema
    .createTable('sealed_pdf_versions')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('envelope_id', 'uuid', (c) => c.notNull().references('envelopes.id').onDelete('cascade'))
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('sealed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index sealed_pdf_versions_envelope on sealed_pdf_versions (envelope_id)`.execute(db);
}
