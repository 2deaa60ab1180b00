import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * Data protection. `retention_rules` holds the administrators' periods (one row per rule, seeded with
 * the defaults; a null period: never deleted by a rule). `legal_holds` stops every deletion for a match
 * while a hold is not lifted. `deletion_records` is what stays of what a run or an erase deleted: its
 * kind, id, match, SHA-256 and the rule, so the history can still say that a contract existed.
 * `retention_runs` and the one-row `retention_lease` let one replica at a time run the deletion.
 * `document_reads` records every opening, download and check of a stored file. `person_exports` keeps
 * an Art. 15 export until its download expires.
 *
 * An envelope outlives its document: its events and the SHA-256 of its files stay, so the reference
 * from envelopes (and from approval requests) to documents loses its foreign key, and the envelope
 * records when and by which rule its files went.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('retention_rules')
    .addColumn('rule', 'text', (c) => c.primaryKey())
    .addColumn('period_value', 'integer')
    .addColumn('period_unit', 'text', (c) => c.check(sql`period_unit in ('days', 'months', 'years')`))
    .addColumn('changed_by', 'text')
    .addColumn('changed_at', 'timestamptz')
    .execute();
  const defaults: [string, number | null, string | null][] = [
    ['failed_generations', 30, 'days'],
    ['envelope_drafts', 90, 'days'],
    ['ended_envelopes', 6, 'months'],
    ['generated_documents', 6, 'years'],
    ['completed_contracts', 10, 'years'],
    ['support_reports', 1, 'years'],
    ['mails', 30, 'days'],
    ['audit_log', null, null],
  ];
  for (const [rule, value, unit] of defaults) {
    await sql`insert into retention_rules (rule, period_value, period_unit) values (${rule}, ${value}, ${unit})`.execute(
      db,
    );
  }

  await db.schema
    .createTable('legal_holds')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('placed_by', 'text', (c) => c.notNull())
    .addColumn('placed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('lifted_by', 'text')
    .addColumn('lifted_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('legal_holds_active')
    .unique()
    .on('legal_holds')
    .column('match_id')
    .where(sql.ref('lifted_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('deletion_records')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('match_id', 'text')
    .addColumn('doc_key', 'text')
    .addColumn('sha256', 'text')
    .execute();
  await db.schema.createIndex('deletion_records_match').on('deletion_records').column('match_id').execute();

  await db.schema
    .createTable('retention_runs')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('deleted', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createTable('retention_lease')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('until', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('document_reads')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('document_id', 'uuid')
    .addColumn('envelope_id', 'uuid')
    .addColumn('version', 'integer')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('document_reads_document').on('document_reads').column('document_id').execute();
  await db.schema.createIndex('document_reads_envelope').on('document_reads').column('envelope_id').execute();

  await db.schema
    .createTable('person_exports')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('person', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('content', 'bytea', (c) => c.notNull())
    .execute();

  // The deletion run takes the oldest due documents first: an index lets each batch stop after its 100.
  await db.schema.createIndex('documents_created_at').on('documents').column('created_at').execute();
  await sql`alter table envelopes drop constraint if exists envelopes_document_id_fkey`.execute(db);
  // An approval request is the record of a decision, kept like the envelope it was for.
  await sql`alter table if exists approval_requests drop constraint if exists approval_requests_document_id_fkey`.execute(
    db,
  );
  await db.schema
    .alterTable('envelopes')
    .addColumn('files_deleted_at', 'timestamptz')
    .addColumn('files_deleted_rule', 'text')
    .execute();
  await db.schema.alterTable('envelope_recipients').addColumn('erased_at', 'timestamptz').execute();
}
