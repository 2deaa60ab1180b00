import { loadProcessConfig } from '../config/config.js';
import { lintTemplates } from '../templates/template-lint.js';
import { runCommandLineTool } from './command-line.js';
import { runTool } from './run-tool.js';
import { STORED_FLAG, storedTemplatesLintTool } from './templates-stored.js';
import type { CliOutput } from './tool.js';

const USAGE = `Verwendung:
  npm run templates:lint -- [vorlagenordner | datei.docx]
  npm run templates:lint -- --gespeichert

Prüft jede .docx-Vorlage (Standard: TEMPLATES_DIR bzw. templates/) oder eine einzelne Datei gegen das
Feldverzeichnis und meldet unbekannte Platzhalter (mit Vorschlag), falsch verwendete Bedingungen,
offene Abschnitte und fehlende Vorlagen. Mit --gespeichert: die veröffentlichten Versionen und
Entwürfe in der Datenbank (/vorlagen).`;

/** `templates:lint`. Returns the exit code: 1 when any template has a problem. */
export async function runTemplatesLint(args: string[], defaultDir: string, io: CliOutput): Promise<number> {
  if (args.length > 1 || args[0]?.startsWith('-')) {
    io.err(USAGE);
    return 1;
  }
  const { checked, problems } = await lintTemplates(args[0] ?? defaultDir);
  for (const line of problems) io.out(line);
  const count = problems.length === 1 ? '1 Problem' : `${problems.length} Probleme`;
  io.out(`${checked} Vorlagen geprüft: ${problems.length === 0 ? 'keine Probleme' : count}.`);
  return problems.length === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  if (args.includes(STORED_FLAG)) {
    process.exit(
      await runCommandLineTool(
        storedTemplatesLintTool,
        args.filter((arg) => arg !== STORED_FLAG),
      ),
    );
  }
  const code = await runTool(() =>
    runTemplatesLint(process.argv.slice(2), loadProcessConfig().templatesDir, {
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    }),
  );
  process.exit(code);
}
