import { type Kysely, sql } from 'kysely';

/**
 * Running contracts. `documents.terms` keeps the deal's values a document was made of (dates, notice
 * texts, parties), so that a contract record reads them as the document says them, whatever the CRM
 * says later. `contract_records` holds one row per signed contract: a completed envelope (unique per
 * envelope) or a final document legal marked as signed elsewhere (unique per document version). Dates
 * are ISO text (YYYY-MM-DD): calendar days without a time zone, ordered as text on both databases.
 * A record's status depends on the day it is read and is computed then; what moves it for good — a
 * termination, a newer Rahmenvertrag — is stored as the link to the record that did it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('terms', 'jsonb').execute();
  await db.schema
    .createTable('contract_records')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('source_kind', 'text', (c) =>
      c.notNull().check(sql`source_kind in ('envelope', 'signed_elsewhere')`),
    )
    .addColumn('envelope_id', 'uuid')
    .addColumn('document_id', 'uuid', (c) => c.notNull())
    .addColumn('document_version', 'integer', (c) => c.notNull())
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('doc_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('company', 'text', (c) => c.notNull())
    .addColumn('partner_type', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('counterparty', 'text', (c) => c.notNull())
    .addColumn('customer', 'text', (c) => c.notNull())
    .addColumn('consultant', 'text', (c) => c.notNull())
    .addColumn('parties', 'jsonb', (c) => c.notNull())
    .addColumn('terms_source', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text')
    .addColumn('end_date', 'text')
    .addColumn('date_problem', 'text')
    .addColumn('notice_text', 'text')
    .addColumn('notice_rule', 'jsonb')
    .addColumn('notice_rule_source', 'text', (c) => c.notNull())
    .addColumn('notice_problem', 'text')
    .addColumn('last_notice_day', 'text')
    .addColumn('parent_id', 'uuid')
    .addColumn('relation', 'text')
    .addColumn('terminated_by', 'uuid')
    .addColumn('superseded_by', 'uuid')
    .addColumn('signed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('signed_by', 'text')
    .addColumn('signed_pdf', 'bytea')
    .addColumn('signed_pdf_sha256', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Checked at commit: a restore writes the records in the order of their ids, a chain's child before
  // its parent as often as not.
  for (const column of ['parent_id', 'terminated_by', 'superseded_by'])
    await db.schema
      .alterTable('contract_records')
      .addForeignKeyConstraint(
        `contract_records_${column}_fkey`,
        [column],
        'contract_records',
        ['id'],
        (constraint) => constraint.deferrable().initiallyDeferred(),
      )
      .execute();
  await db.schema
    .createIndex('contract_records_envelope')
    .unique()
    .on('contract_records')
    .column('envelope_id')
    .execute();
  await db.schema
    .createIndex('contract_records_signed_elsewhere')
    .unique()
    .on('contract_records')
    .columns(['document_id', 'document_version'])
    .where(sql<boolean>`source_kind = 'signed_elsewhere'`)
    .execute();
  await db.schema
    .createIndex('contract_records_end')
    .on('contract_records')
    .columns(['end_date', 'id'])
    .execute();
  await db.schema
    .createIndex('contract_records_notice')
    .on('contract_records')
    .columns(['last_notice_day', 'id'])
    .execute();
  await db.schema
    .createIndex('contract_records_match')
    .on('contract_records')
    .columns(['match_id', 'id'])
    .execute();
  await db.schema
    .createIndex('contract_records_customer')
    .on('contract_records')
    .columns(['customer', 'id'])
    .execute();
  await db.schema
    .createIndex('contract_records_signed')
    .on('contract_records')
    .columns(['signed_at', 'id'])
    .execute();
  // The list's filters and search match from the start of a name, without case: prefix scans of these.
  for (const [name, column] of [
    ['contract_records_match_prefix', sql`upper(match_id) text_pattern_ops`],
    ['contract_records_customer_prefix', sql`lower(customer) text_pattern_ops`],
    ['contract_records_counterparty_prefix', sql`lower(counterparty) text_pattern_ops`],
    // Also a consultant's own view, in its default order: the deals of one consultant by their end.
    ['contract_records_consultant_prefix', sql`lower(consultant) text_pattern_ops, end_date, id`],
  ] as const)
    await db.schema.createIndex(name).on('contract_records').expression(column).execute();
  await db.schema
    .createIndex('contract_records_without_framework')
    .on('contract_records')
    .columns(['end_date', 'id'])
    .where(sql<boolean>`kind = 'einzelauftrag' and parent_id is null`)
    .execute();
  await db.schema
    .createIndex('contract_records_counterparty')
    .on('contract_records')
    .columns(['company', 'partner_type', 'counterparty', 'kind'])
    .execute();
  await db.schema.createIndex('contract_records_parent').on('contract_records').column('parent_id').execute();
  await db.schema
    .createTable('contract_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('contract_id', 'uuid', (c) => c.notNull().references('contract_records.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('contract_events_contract')
    .on('contract_events')
    .columns(['contract_id', 'at'])
    .execute();
}
