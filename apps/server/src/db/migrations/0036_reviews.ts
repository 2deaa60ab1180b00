import { type Kysely, sql } from 'kysely';

/**
 * Negotiation: a document sent to the counterparty for review, round after round.
 *
 * - `reviews`: one per document (unique), its state (`open`, `agreed`, `withdrawn`), the contract's
 *   language for the counterparty's page and mails, who started it, and the version agreed on.
 * - `review_rounds`: one per sending; the version sent (number and SHA-256), the message and due date;
 *   once the counterparty sends it back, when, by whom, how (`browser`, `upload`, `none`) and the version
 *   that holds their suggestions as tracked changes. One round per review may be `sent` at a time.
 * - `review_reviewers`: the people of the counterparty a round went to, each with a personal link (only
 *   the token's SHA-256, derived from the signing-link key and a generation that a renewal raises), its
 *   expiry, withdrawal, first opening and the reminder before the due date.
 * - `reviewer_codes`: the one-time code each reviewer confirms before the document opens, as
 *   `signer_codes` keeps it for signers.
 * - `review_suggestions`: each tracked change of a returned round (its `w:id` in the returned version),
 *   and what legal decided.
 * - `review_comments`: comments and replies; `internal` ones are the company's own and are never shown to,
 *   nor put in a file for, the counterparty — comments live here and never in the DOCX.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reviews')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('document_id', 'uuid', (c) =>
      c.notNull().unique().references('documents.id').onDelete('cascade'),
    )
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('open', 'agreed', 'withdrawn')`))
    .addColumn('language', 'text', (c) => c.notNull().check(sql`language in ('de', 'en')`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_by_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('agreed_at', 'timestamptz')
    .addColumn('agreed_by', 'text')
    .addColumn('agreed_version', 'integer')
    .execute();
  await db.schema
    .createTable('review_rounds')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('review_id', 'uuid', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('sent', 'returned', 'withdrawn')`))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('sent_by', 'text', (c) => c.notNull())
    .addColumn('sent_by_name', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_version', 'integer', (c) => c.notNull())
    .addColumn('sent_sha256', 'text', (c) => c.notNull())
    .addColumn('returned_at', 'timestamptz')
    .addColumn('returned_by', 'text')
    .addColumn('returned_via', 'text', (c) => c.check(sql`returned_via in ('browser', 'upload', 'none')`))
    .addColumn('returned_version', 'integer')
    .addColumn('returned_sha256', 'text')
    .addUniqueConstraint('review_rounds_number', ['review_id', 'number'])
    .execute();
  // At most one round out with the counterparty per review: two staff clicking „Nächste Runde“ at once
  // cannot both send one.
  await sql`create unique index review_rounds_one_sent on review_rounds (review_id) where state = 'sent'`.execute(
    db,
  );
  await db.schema
    .createTable('review_reviewers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('round_id', 'uuid', (c) => c.notNull().references('review_rounds.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_sha256', 'text', (c) => c.notNull().unique())
    .addColumn('link_generation', 'integer', (c) => c.notNull())
    .addColumn('token_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('withdrawn_at', 'timestamptz')
    .addColumn('opened_at', 'timestamptz')
    .addColumn('reminded_at', 'timestamptz')
    .execute();
  await db.schema
    .createTable('reviewer_codes')
    .addColumn('recipient_id', 'uuid', (c) =>
      c.primaryKey().references('review_reviewers.id').onDelete('cascade'),
    )
    .addColumn('link_sha256', 'text', (c) => c.notNull())
    .addColumn('code_hmac', 'text')
    .addColumn('code_sent_at', 'timestamptz')
    .addColumn('code_expires_at', 'timestamptz')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0).check(sql`failed_attempts >= 0`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('verified_at', 'timestamptz')
    .execute();
  await db.schema
    .createTable('review_suggestions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('round_id', 'uuid', (c) => c.notNull().references('review_rounds.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('change_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('insert', 'delete')`))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('context', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('made_at', 'timestamptz', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('open', 'accepted', 'rejected')`))
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'timestamptz')
    .addUniqueConstraint('review_suggestions_change', ['round_id', 'change_id'])
    .execute();
  await db.schema
    .createTable('review_comments')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('review_id', 'uuid', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('parent_id', 'uuid', (c) => c.references('review_comments.id').onDelete('cascade'))
    .addColumn('visibility', 'text', (c) => c.notNull().check(sql`visibility in ('external', 'internal')`))
    .addColumn('side', 'text', (c) => c.notNull().check(sql`side in ('company', 'counterparty')`))
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('author_email', 'text', (c) => c.notNull())
    .addColumn('quote', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('review_comments_review').on('review_comments').column('review_id').execute();
}
