import { join, resolve } from 'node:path';
import { callersFolder, loadProcessConfig } from '../config/config.js';
import { loadCompanyData } from '../templates/companies.js';
import { folderTemplates } from '../templates/folder-templates.js';
import { createRendererPool } from '../templates/renderer.js';
import { richestDemoMatch } from '../templates/samples.js';
import { type PreviewSources, writeTemplatePreview } from '../templates/template-preview.js';
import { runCommandLineTool } from './command-line.js';
import { argsFromCallersFolder, runTool } from './run-tool.js';
import { STORED_FLAG, storedTemplatesPreviewTool } from './templates-stored.js';
import type { CliOutput } from './tool.js';

const USAGE = `Verwendung:
  npm run templates:preview -- [zielordner]
  npm run templates:preview -- --gespeichert [zielordner]

Erstellt jedes Dokument des Katalogs mit einem Demo-Match als <schlüssel>.docx im Zielordner
(Standard: ./data/preview), damit eine geänderte Vorlage in Word geprüft werden kann: aus den Dateien
in TEMPLATES_DIR, oder mit --gespeichert aus den veröffentlichten Versionen in der Datenbank.`;

/** `templates:preview`. Returns the exit code: 1 when any key could not be rendered. */
export async function runTemplatesPreview(
  args: string[],
  sources: PreviewSources,
  io: CliOutput,
): Promise<number> {
  if (args.length > 1 || args[0]?.startsWith('-')) {
    io.err(USAGE);
    return 1;
  }
  const failed = await writeTemplatePreview(resolve(args[0] ?? './data/preview'), sources, (line) =>
    io.out(line),
  );
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
