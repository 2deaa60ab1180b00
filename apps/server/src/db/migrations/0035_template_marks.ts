import { type Kysely, sql } from 'kysely';

/**
 * The paragraphs of a template version marked „Änderung braucht Freigabe“ (Haftung, Kundenschutz, …):
 * `[{ paragraph, label }]`, the paragraph as the template's text has it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('template_versions')
    .addColumn('marks', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}
