import { resolve } from 'node:path';
import { BackupRefusedError } from '../backup/backup-file.js';
import { writeBackup } from '../backup/write-backup.js';
import { type CliOutput, type CommandLineTool, runCommandLineTool } from './command-line.js';

const USAGE = `Verwendung:
  npm run backup -- <datei>

Schreibt eine Sicherung aller Daten (Dokumente mit ihren Versionen, Umschläge mit ihren Ereignissen,
Benutzer, Sitzungen, Protokoll, Postausgang) in <datei>, auch während der Server läuft. Zurückspielen:
npm run restore -- <datei>`;

/** A backup of the database the server uses; beside a running embedded server, written by that server. */
export const backupTool: CommandLineTool = {
  name: 'backup',
  files: () => [],
  async run(args, { db, productVersion, databaseKind }, io: CliOutput) {
    const [file, ...more] = args;
    if (!file || more.length > 0 || file.startsWith('-')) {
      io.err(USAGE);
      return 1;
    }
    try {
      const written = await writeBackup(db, file, { productVersion, database: databaseKind });
      const total = Object.values(written.rows).reduce((sum, count) => sum + count, 0);
      io.out(
        `Sicherung geschrieben: ${written.file} (${(written.bytes / 1024 / 1024).toFixed(1)} MB, ` +
          `${total} Zeilen in ${Object.keys(written.rows).length} Tabellen, ` +
          `${written.rows.documents ?? 0} Dokumente, ${written.rows.envelopes ?? 0} Umschläge; ` +
          `Datenbankstand ${written.header.schema}).`,
      );
      return 0;
    } catch (error) {
      const reason = error instanceof BackupRefusedError ? error.message : (error as Error).message;
      io.err(
        `Die Sicherung nach ${file} ist fehlgeschlagen: ${reason}. Eine frühere Sicherung dort bleibt erhalten.`,
      );
      return 1;
    }
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  // npm runs scripts in the repository folder: a relative name means the folder it was called from,
  // and the running server, which writes the file, has a working folder of its own.
  const base = process.env.INIT_CWD ?? process.cwd();
  const args = process.argv.slice(2).map((arg) => (arg.startsWith('-') ? arg : resolve(base, arg)));
  process.exit(await runCommandLineTool(backupTool, args));
}
