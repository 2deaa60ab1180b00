import { type Kysely, sql } from 'kysely';

/**
 * The clause library: paragraphs legal keeps once and templates place by a tag (`{@klausel:haftung}`),
 * versioned as templates are (migration 0013).
 *
 * - `clauses`: one row per clause, its key as the tag names it. `published_version` is the version the
 *   next document gets; publishing changes this one column with the row locked. `needs_approval`: a change
 *   of its text in a document needs Freigabe, as a marked template paragraph does.
 * - `clause_versions`: `content` is the variants with their rules and texts (`ClauseContent`), never
 *   changed once written; only the last publication's who/when/comment is. `problems` is what the check
 *   found when it was saved; a version with any cannot be published. Status is derived as for templates.
 * - `documents.clauses`: which version and variant of each clause a document was made with
 *   (`DocumentClause[]`); null for documents made before, or of a template placing none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('clauses')
    .addColumn('key', 'text', (c) => c.primaryKey().check(sql`key ~ '^[a-z][a-z0-9-]{1,39}$'`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('needs_approval', 'boolean', (c) => c.notNull())
    .addColumn('published_version', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('clause_versions')
    .addColumn('clause', 'text', (c) => c.notNull().references('clauses.key').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 1`))
    .addColumn('content', 'jsonb', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('problems', 'jsonb', (c) => c.notNull())
    .addColumn('published_at', 'timestamptz')
    .addColumn('published_by', 'text')
    .addColumn('publish_comment', 'text')
    .addPrimaryKeyConstraint('clause_versions_pk', ['clause', 'version'])
    .execute();
  // Checked at commit, as for templates: a restore writes `clauses` before the versions its rows name.
  await db.schema
    .alterTable('clauses')
    .addForeignKeyConstraint(
      'clauses_published_version',
      ['key', 'published_version'],
      'clause_versions',
      ['clause', 'version'],
      (constraint) => constraint.deferrable().initiallyDeferred(),
    )
    .execute();
  await db.schema.alterTable('documents').addColumn('clauses', 'jsonb').execute();
}
