import { type Kysely, sql } from 'kysely';

/**
 * A consultant's own /vertraege sorted by customer: the deals of one consultant in customer order, read
 * from one index. Without it PGlite's planner walked the customer index over every record to find the
 * consultant's (0.3–0.4 s for a deep page of 5,000 among 100,000); the end-date order has its index since
 * migration 0027.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('contract_records_consultant_customer')
    .on('contract_records')
    .expression(sql`lower(consultant), customer, id`)
    .execute();
}
