import type { Kysely } from 'kysely';

/**
 * The last answer of an external CRM per match (CRM_CACHE_SECONDS): it stands in for the CRM while the
 * CRM is down. The record is the mapped match, so the mapping need not be applied again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crm_match_cache')
    .addColumn('match_id', 'text', (c) => c.primaryKey())
    .addColumn('record', 'jsonb', (c) => c.notNull())
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull())
    .execute();
}
