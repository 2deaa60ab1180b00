import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * API clients: systems that call the API on their own (a CRM's button, a script), each with the
 * permission level it acts with and an expiry. Only the SHA-256 of the token is kept, so a copy of the
 * database or a backup opens nothing; the name is unique for good, so the audit log's `api:<name>`
 * always means one client, even after it was revoked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('permission', 'integer', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_hint', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_by', 'text')
    .execute();
}
