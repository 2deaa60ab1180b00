import { parseArgs } from 'node:util';
import { AuditLog } from '../admin/audit-log.js';
import { importExitCode, importMatches, importReport } from '../matches/import.js';
import { MatchStore } from '../matches/match-store.js';
import { runCommandLineTool } from './command-line.js';
import type { CliOutput, CommandLineTool } from './tool.js';

const USAGE = `Verwendung:
  npm run matches:import -- [--skip-invalid] <datei.json|datei.csv>

Importiert Matches in den eingebauten Match-Speicher; bekannte Match-IDs werden aktualisiert.
Enthält die Datei eine ungültige Zeile, wird nichts importiert, außer mit --skip-invalid: dann
werden die gültigen Zeilen importiert.`;

/**
 * Imports a match file (docs/architecture.md#matches) with its audit entry, as /verwaltung does. Returns the
 * process exit code: 1 when refused rows kept everything out.
 */
export async function runMatchesImport(
  args: string[],
  { store, audit, actor, readText }: MatchesImportContext,
  io: CliOutput,
): Promise<number> {
  const command = parseCommand(args);
  if (!command) {
    io.err(USAGE);
    return 1;
  }
  let text: string;
  try {
    text = await readText(command.file);
  } catch (error) {
    io.err(`Die Datei ${command.file} kann nicht gelesen werden: ${(error as Error).message}`);
    return 1;
  }
  const result = await importMatches(text, store, {
    skipInvalid: command.skipInvalid,
    record: (trx, written) =>
      audit.record(
        {
          actor,
          action: 'matches.import',
          subject: command.file,
          newValue: `${written.imported} importiert: ${written.new} neu, ${written.changed} geändert, ${written.unchanged} unverändert; ${written.refused.length} abgelehnt`,
        },
        trx,
      ),
  });
  for (const line of importReport(result)) io.out(line);
  if (result.imported === 0 && result.valid > 0) {
    io.out(`Nichts importiert. Gültige Zeilen: ${result.valid}; --skip-invalid importiert sie trotzdem.`);
  }
  return importExitCode(result);
}

function parseCommand(args: string[]): { file: string; skipInvalid: boolean } | undefined {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { 'skip-invalid': { type: 'boolean', default: false } },
      allowPositionals: true,
    });
    const [file, ...more] = positionals;
    return file && more.length === 0 ? { file, skipInvalid: values['skip-invalid'] } : undefined;
  } catch {
    return undefined; // an unknown option
  }
}

export interface MatchesImportContext {
  store: MatchStore;
  audit: AuditLog;
  actor: string;
  readText(path: string): Promise<string>;
}

export const matchesImportTool: CommandLineTool = {
  name: 'matches:import',
  files: (args) => {
    const file = parseCommand(args)?.file;
    return file ? [file] : [];
  },
  run: (args, { db, actor, readText }, io) =>
    runMatchesImport(args, { store: new MatchStore(db), audit: new AuditLog(db), actor, readText }, io),
};

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(await runCommandLineTool(matchesImportTool, process.argv.slice(2)));
}
