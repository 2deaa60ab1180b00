import { type Kysely, sql } from 'kysely';

/**
 * A record keeps the rates and hours per week its document states — of the document's side: VK for the
 * customer, EK for the project partner — as the deal's values were written (a number or the CRM's text).
 * An extension (Verlängerung) moves them on the contract it extends, as it moves its end. Records made so
 * far get them from their document's terms; one whose document kept none stays without.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('contract_records')
    .addColumn('rate_remote', 'text')
    .addColumn('rate_onsite', 'text')
    .addColumn('hours_per_week', 'text')
    .execute();
  await fillRates(db);
}

/** The rates of every record whose document kept its terms. */
export async function fillRates(db: Kysely<unknown>): Promise<void> {
  await sql`update contract_records c set
      rate_remote = d.terms ->> (case when c.partner_type = 'k' then 'vk' else 'ek' end),
      rate_onsite = d.terms ->> (case when c.partner_type = 'k' then 'vk2' else 'ek2' end),
      hours_per_week = d.terms ->> 'stundenProWoche'
    from documents d where d.id = c.document_id and d.terms is not null`.execute(db);
}
