import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CATALOGUE, type ResolvedMatch } from '@vertragsgenerator/domain';
import { callersFolder, loadProcessConfig } from '../config/config.js';
import { type CompanyData, loadCompanyData, templateDataFor } from '../documents/companies.js';
import { documentFileName } from '../documents/file-name.js';
import { folderTemplates } from '../documents/folder-templates.js';
import {
  createRendererPool,
  type Renderer,
  TemplateError,
  type TemplateSources,
} from '../documents/renderer.js';
import { richestDemoMatch, sampleDataList } from '../documents/samples.js';
import type { CliOutput } from './command-line.js';
import { runCommandLineTool } from './command-line.js';
import { argsFromCallersFolder, runTool } from './run-tool.js';
import { STORED_FLAG, storedTemplatesPreviewTool } from './templates-stored.js';

const USAGE = `Verwendung:
  npm run templates:preview -- [zielordner]
  npm run templates:preview -- --gespeichert [zielordner]

Erstellt jedes Dokument des Katalogs mit einem Demo-Match als <schlüssel>.docx im Zielordner
(Standard: ./data/preview), damit eine geänderte Vorlage in Word geprüft werden kann: aus den Dateien
in TEMPLATES_DIR, oder mit --gespeichert aus den veröffentlichten Versionen in der Datenbank.`;

export interface PreviewSources {
  renderer: Renderer;
  templates: TemplateSources;
  companyData: CompanyData;
  match: ResolvedMatch;
  today: Date;
}

/** `templates:preview` (DESIGN §9). Returns the exit code: 1 when any key could not be rendered. */
export async function runTemplatesPreview(
  args: string[],
  sources: PreviewSources,
  io: CliOutput,
): Promise<number> {
  if (args.length > 1 || args[0]?.startsWith('-')) {
    io.err(USAGE);
    return 1;
  }
  const folder = resolve(args[0] ?? './data/preview');
  await mkdir(folder, { recursive: true });
  const { renderer, templates, companyData, match, today } = sources;
  let failed = 0;
  // One after the other: the pool's queue is bounded, and a line per finished key shows progress.
  for (const entry of CATALOGUE.values()) {
    const data = templateDataFor(
      entry,
      match,
      sampleDataList(entry, match, companyData.signatories),
      companyData,
      today,
    );
    try {
      const { content } = await renderer.render(await templates.current(entry.template), data);
      await writeFile(join(folder, `${entry.key}.docx`), content);
      io.out(`${entry.key}.docx  ${documentFileName(entry, data)}`);
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      failed += 1;
      io.out(`${entry.key}: nicht erstellt – ${error.message.replaceAll('\n', '; ')}`);
    }
  }
  io.out(`${CATALOGUE.size - failed} von ${CATALOGUE.size} Dokumenten in ${folder}`);
  return failed === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = argsFromCallersFolder();
  if (args.includes(STORED_FLAG)) {
    // The folder as the caller means it, also when the running server writes the files.
    const [folder = resolve(callersFolder(), 'data/preview'), ...more] = args.filter(
      (arg) => arg !== STORED_FLAG,
    );
    process.exit(await runCommandLineTool(storedTemplatesPreviewTool, [folder, ...more]));
  }
  const code = await runTool(async () => {
    const config = loadProcessConfig();
    const renderer = createRendererPool({ threads: config.renderThreads });
    try {
      const sources = {
        renderer,
        templates: folderTemplates(config.templatesDir),
        companyData: await loadCompanyData(config.configDir),
        match: await richestDemoMatch(join(config.configDir, 'demo-matches.json')),
        today: new Date(),
      };
      return await runTemplatesPreview(args, sources, {
        out: (line) => console.log(line),
        err: (line) => console.error(line),
      });
    } finally {
      await renderer.close();
    }
  });
  process.exit(code);
}
