import { type Kysely, sql } from 'kysely';

/**
 * E-signature envelopes: one generated document on its way to its signers, with every
 * event that happened to it. A row exists before the signature provider is called, so nothing is ever
 * created at the provider without a record here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('envelopes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('document_id', 'uuid', (c) => c.notNull().references('documents.id'))
    .addColumn('document_version', 'integer', (c) => c.notNull())
    .addColumn('document_sha256', 'text', (c) => c.notNull())
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('doc_key', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider in ('builtin', 'docusign')`))
    .addColumn('external_id', 'text')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('created', 'sent', 'completed', 'declined', 'voided', 'failed')`),
    )
    .addColumn('provider_status', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('sender_name', 'text', (c) => c.notNull())
    .addColumn('sender_email', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    /** The browser's idempotency key: a retried request finds its envelope instead of making another. */
    .addColumn('request_key', 'text')
    .addColumn('error', 'text')
    .addColumn('certificate', 'bytea')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addUniqueConstraint('envelopes_request_key', ['created_by', 'request_key'])
    .execute();
  await db.schema.createIndex('envelopes_document').on('envelopes').column('document_id').execute();
  await db.schema
    .createIndex('envelopes_external')
    .unique()
    .on('envelopes')
    .columns(['provider', 'external_id'])
    .where(sql.ref('external_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('envelope_recipients')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('envelope_id', 'uuid', (c) => c.notNull().references('envelopes.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('routing_order', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('waiting', 'sent', 'opened', 'signed', 'declined', 'copy')`),
    )
    /** SHA-256 of the signer's link token: the token itself is only in the invitation mail. */
    .addColumn('token_sha256', 'text', (c) => c.unique())
    .addColumn('token_expires_at', 'timestamptz')
    .addColumn('signed_at', 'timestamptz')
    .addColumn('typed_name', 'text')
    .addColumn('drawn_signature', 'bytea')
    .addColumn('signed_ip', 'text')
    .addColumn('signed_user_agent', 'text')
    .addColumn('decline_reason', 'text')
    .execute();
  await db.schema
    .createIndex('envelope_recipients_envelope')
    .on('envelope_recipients')
    .columns(['envelope_id', 'position'])
    .execute();

  await db.schema
    .createTable('envelope_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('envelope_id', 'uuid', (c) => c.notNull().references('envelopes.id').onDelete('cascade'))
    .addColumn('recipient_id', 'uuid')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('detail', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('envelope_events_envelope')
    .on('envelope_events')
    .columns(['envelope_id', 'id'])
    .execute();
}
