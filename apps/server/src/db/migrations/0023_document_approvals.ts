import { type Kysely, sql } from 'kysely';

/**
 * Freigabe of a document that is downloaded rather than signed (`approval_requests.envelope_id` null):
 * at most one open request per document, as `approval_requests_open_envelope` keeps one per envelope;
 * so of two people asking at once one gets the request and the other a 409.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('approval_requests_open_document')
    .unique()
    .on('approval_requests')
    .column('document_id')
    .where(sql<boolean>`status = 'open' and envelope_id is null`)
    .execute();
  await db.schema
    .createIndex('approval_requests_document')
    .on('approval_requests')
    .columns(['document_id', 'requested_at'])
    .execute();
}
