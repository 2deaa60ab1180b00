import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * Countersigning. The company's signatory signs an envelope last, as a recipient of role `Firma`; their
 * function (config/signatories.json at the time of sending) is kept beside them for the certificate.
 * `countersignature_settings` holds the administrators' switch per document family: whether an envelope
 * may go out without a countersignatory. A family without a row keeps the default of the domain
 * (`COUNTERSIGNATURE_DEFAULTS`); each change is also an audit entry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('envelope_recipients').addColumn('signatory_function', 'text').execute();
  await db.schema
    .createTable('countersignature_settings')
    .addColumn('family', 'text', (c) => c.primaryKey())
    .addColumn('without_allowed', 'boolean', (c) => c.notNull())
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
