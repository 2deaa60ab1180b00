import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CATALOGUE, type ResolvedMatch } from '@vertragsgenerator/domain';
import type { CompanyData } from './companies.js';
import { documentFileName } from './file-name.js';
import { type Renderer, TemplateError, type TemplateSources } from './renderer.js';
import { sampleTemplateData } from './samples.js';

export interface PreviewSources {
  renderer: Renderer;
  templates: TemplateSources;
  companyData: CompanyData;
  match: ResolvedMatch;
  today: Date;
}

/**
 * Renders every catalogue key with a demo match into `folder` as `<key>.docx`, so that a changed
 * template can be checked in Word. `report` gets a line per key and a closing count. Returns how many
 * keys could not be rendered.
 */
export async function writeTemplatePreview(
  folder: string,
  sources: PreviewSources,
  report: (line: string) => void,
): Promise<number> {
  await mkdir(folder, { recursive: true });
  const { renderer, templates, companyData, match, today } = sources;
  let failed = 0;
  // One after the other: the pool's queue is bounded, and a line per finished key shows progress.
  for (const entry of CATALOGUE.values()) {
    const data = sampleTemplateData(entry, match, companyData, today);
    try {
      const { content } = await renderer.render(await templates.current(entry.template), data);
      await writeFile(join(folder, `${entry.key}.docx`), content);
      report(`${entry.key}.docx  ${documentFileName(entry, data)}`);
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      failed += 1;
      report(`${entry.key}: nicht erstellt – ${error.message.replaceAll('\n', '; ')}`);
    }
  }
  report(`${CATALOGUE.size - failed} von ${CATALOGUE.size} Dokumenten in ${folder}`);
  return failed;
}
