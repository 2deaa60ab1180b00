import { join } from 'node:path';
import { sha256Hex } from '../shared/sha256.js';
import { cachedPerFile } from './file-cache.js';
import { TemplateError, type TemplateSource, type TemplateSources } from './renderer.js';
import { unreadableTemplate } from './template-problems.js';

/**
 * Templates read from a folder of DOCX files: what the command-line tools render and lint, and where
 * the template library takes version 1 of each template from on an empty database.
 */
export function folderTemplates(templatesDir: string): TemplateSources {
  const read = cachedPerFile((content) => ({ content, sha256: sha256Hex(content) }));
  return {
    async current(name): Promise<TemplateSource> {
      try {
        return { name, version: null, ...(await read(join(templatesDir, name))) };
      } catch (error) {
        throw new TemplateError(name, [unreadableTemplate(error)]);
      }
    },
  };
}
