import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { importExitCode, importMatches, importReport } from '../matches/import.js';
import { MatchStore } from '../matches/match-store.js';
import { withDatabase } from './database.js';
import type { CliOutput } from './users.js';

const USAGE = `Verwendung:
  npm run matches:import -- [--skip-invalid] <datei.json|datei.csv>

Importiert Matches in den eingebauten Match-Speicher; bekannte Match-IDs werden aktualisiert.
Enthält die Datei eine ungültige Zeile, wird nichts importiert, außer mit --skip-invalid: dann
werden die gültigen Zeilen importiert.`;

/** Imports a match file (DESIGN §8). Returns the process exit code: 1 when refused rows kept everything out. */
export async function runMatchesImport(args: string[], store: MatchStore, io: CliOutput): Promise<number> {
  const command = parseCommand(args);
  if (!command) {
    io.err(USAGE);
    return 1;
  }
  let text: string;
  try {
    text = await readFile(command.file, 'utf8');
  } catch (error) {
    io.err(`Die Datei ${command.file} kann nicht gelesen werden: ${(error as Error).message}`);
    return 1;
  }
  const result = await importMatches(text, store, { skipInvalid: command.skipInvalid });
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const code = await withDatabase((db) =>
    runMatchesImport(process.argv.slice(2), new MatchStore(db), {
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    }),
  );
  process.exit(code);
}
