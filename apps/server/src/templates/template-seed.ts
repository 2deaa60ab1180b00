import type { FastifyBaseLogger } from 'fastify';
import { folderTemplates } from './folder-templates.js';
import { fileProblems } from './template-check.js';
import type { TemplateVersions } from './template-versions.js';

/**
 * On an empty database the files under TEMPLATES_DIR become version 1 of each template;
 * after that the database is the source of truth and the folder is not read again for a template
 * that has versions. Checked without rendering, so that the start needs no render threads.
 */
export async function seedTemplates(
  templates: TemplateVersions,
  templatesDir: string,
  log: FastifyBaseLogger,
): Promise<void> {
  const folder = folderTemplates(templatesDir);
  const seeded = await templates.seed(
    async (name) => (await folder.current(name).catch(() => undefined))?.content,
    async (_name, content) => fileProblems(content),
  );
  if (seeded.length > 0)
    log.info({ templates: seeded, templatesDir }, 'templates taken from the folder as version 1');
}
