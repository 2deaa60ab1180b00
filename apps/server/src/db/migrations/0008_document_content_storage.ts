import { type Kysely, sql } from 'kysely';

/**
 * A DOCX is a zip archive: PostgreSQL's own compression of large values (pglz) cannot shrink it and
 * only spends time trying, 0.15 ms for each 20 kB version stored. EXTERNAL keeps the out-of-line
 * storage and skips the attempt; versions stored before keep their form.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table document_versions alter column content set storage external`.execute(db);
}
