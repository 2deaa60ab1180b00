import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * Where the company's countersignatory signs, per template: last (after every other signer) unless an
 * administrator put the company first for a template, as a company does that offers a contract it has
 * already signed. A template without a row keeps last; each change is also an audit entry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('countersignature_order')
    .addColumn('template', 'text', (c) => c.primaryKey())
    .addColumn('first', 'boolean', (c) => c.notNull())
    .addColumn('changed_by', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
