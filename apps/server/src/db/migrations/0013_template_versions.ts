import { type Kysely, sql } from 'kysely';

/**
 * The template library: templates and their versions live in the database, so every
 * replica renders the same published version and legal staff can publish and roll back.
 *
 * - `templates`: one row per template file of the catalogue; `published_version` is the version the
 *   next document is rendered from. Publishing changes this one column (with the row locked), so a
 *   render reads either the old or the new version, never a mix.
 * - `template_versions`: immutable once written except for the last publication's who/when/comment.
 *   Its status is derived: the template's published version, `ersetzt` when it was published before,
 *   otherwise a draft. `problems` is what the server's check found at upload; a version with any
 *   cannot be published.
 * - `documents.template_version`: the version a document was rendered from (null before this
 *   migration, and for a template rendered from a file by the command-line tools).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('templates')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('published_version', 'integer')
    .execute();
  await db.schema
    .createTable('template_versions')
    .addColumn('template', 'text', (c) => c.notNull().references('templates.name'))
    .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 1`))
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('problems', 'jsonb', (c) => c.notNull())
    .addColumn('published_at', 'timestamptz')
    .addColumn('published_by', 'text')
    .addColumn('publish_comment', 'text')
    .addPrimaryKeyConstraint('template_versions_pk', ['template', 'version'])
    .execute();
  // Like document versions: a DOCX is already compressed (migration 0008).
  await sql`alter table template_versions alter column content set storage external`.execute(db);
  // Checked at commit: the two tables point at each other, and a restore (one transaction, a table
  // after the tables it references) writes `templates` before the versions its rows name.
  await db.schema
    .alterTable('templates')
    .addForeignKeyConstraint(
      'templates_published_version',
      ['name', 'published_version'],
      'template_versions',
      ['template', 'version'],
      (constraint) => constraint.deferrable().initiallyDeferred(),
    )
    .execute();
  await db.schema.alterTable('documents').addColumn('template_version', 'integer').execute();
}
