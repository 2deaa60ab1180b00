import { type Kysely, sql } from 'kysely';

/**
 * A record keeps when its document was generated and when its envelope was first sent, beside when it
 * was signed, so that /auswertung reads a contract's lead times from its record alone. Computed at the
 * figures' time from the envelope, its document and its events, the chart joined four tables and looked
 * up each envelope's first `sent` event: over a second with 100,000 contracts. The records made so far
 * get both from what is stored (a record signed elsewhere has no sending).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('contract_records')
    .addColumn('generated_at', 'timestamptz')
    .addColumn('first_sent_at', 'timestamptz')
    .execute();
  await fillLeadTimes(db);
}

/** Both instants of every record, from its document and its envelope's events. */
export async function fillLeadTimes(db: Kysely<unknown>): Promise<void> {
  await sql`update contract_records c set generated_at = d.created_at
    from documents d where d.id = c.document_id`.execute(db);
  await sql`update contract_records c set first_sent_at = (
      select min(ev.at) from envelope_events ev where ev.envelope_id = c.envelope_id and ev.type = 'sent'
    ) where c.envelope_id is not null`.execute(db);
}
