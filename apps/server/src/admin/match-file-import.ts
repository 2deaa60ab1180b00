import type { MatchImportSummary } from '@vertragsgenerator/domain';
import { importMatches } from '../matches/import.js';
import type { MatchStore } from '../matches/match-store.js';
import { HttpError } from '../shared/http-error.js';
import type { AuditLog } from './audit-log.js';

/**
 * "Matches importieren" in /verwaltung: the CLI's format and validator, first as a dry run, then
 * written in one transaction together with its audit entry.
 */
export class MatchFileImport {
  constructor(
    private readonly store: MatchStore,
    private readonly audit: AuditLog,
  ) {}

  async run(
    actor: string,
    file: { name: string; bytes: Uint8Array },
    { apply, skipInvalid }: { apply: boolean; skipInvalid: boolean },
  ): Promise<MatchImportSummary> {
    const text = decodeMatchFile(file);
    const result = await importMatches(text, this.store, {
      dryRun: !apply,
      skipInvalid,
      record: (trx, written) =>
        this.audit.record(
          {
            actor,
            action: 'matches.import',
            subject: file.name,
            newValue: `${written.imported} importiert: ${written.new} neu, ${written.changed} geändert, ${written.unchanged} unverändert; ${written.refused.length} abgelehnt`,
          },
          trx,
        ),
    });
    return {
      new: result.new,
      changed: result.changed,
      unchanged: result.unchanged,
      refused: result.refused,
      imported: result.imported,
    };
  }
}

/**
 * The file as text, or a 400 naming the file: only `.csv` and `.json`, UTF-8 (with or without BOM),
 * no binary content — a spreadsheet saved as .xlsx or a PDF is refused before any row is read.
 */
export function decodeMatchFile(file: { name: string; bytes: Uint8Array }): string {
  const refuse = (message: string) => new HttpError(400, 'invalid_file', message, { file: [message] });
  if (!/\.(csv|json)$/i.test(file.name)) {
    throw refuse('Bitte eine CSV- oder JSON-Datei wählen (Endung .csv oder .json).');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file.bytes);
  } catch {
    throw refuse('Die Datei ist keine UTF-8-Textdatei. Bitte als CSV (UTF-8) oder JSON speichern.');
  }
  if (text.includes('\u0000')) {
    throw refuse('Die Datei enthält Binärdaten und ist keine CSV- oder JSON-Datei.');
  }
  return text;
}
