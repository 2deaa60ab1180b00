import { formatByteSize } from '@vertragsgenerator/domain';
import { describeRows } from '../backup/backup-file.js';
import { writeServedEmbeddedBackup } from '../backup/served-embedded-backup.js';
import { writeBackup } from '../backup/write-backup.js';
import { runCommandLineTool } from './command-line.js';
import { argsFromCallersFolder } from './run-tool.js';
import type { CliOutput, CommandLineTool } from './tool.js';

const USAGE = `Verwendung:
  npm run backup -- <datei>

Schreibt eine Sicherung aller Daten (Dokumente mit ihren Versionen, Umschläge mit ihren Ereignissen,
Benutzer, Sitzungen, Protokoll, Postausgang) in <datei>, auch während der Server läuft. Zurückspielen:
npm run restore -- <datei>`;

/** A backup of the database the server uses; beside a running embedded server, written by that server. */
export const backupTool: CommandLineTool = {
  name: 'backup',
  files: () => [],
  async run(args, { db, productVersion, databaseKind, servedDataDir }, io: CliOutput) {
    const [file, ...more] = args;
    if (!file || more.length > 0 || file.startsWith('-')) {
      io.err(USAGE);
      return 1;
    }
    try {
      const written = servedDataDir
        ? await writeServedEmbeddedBackup(db, servedDataDir, file, productVersion)
        : await writeBackup(db, file, { productVersion, database: databaseKind });
      io.out(
        `Sicherung geschrieben: ${written.file} (${formatByteSize(written.bytes)}, ` +
          `${describeRows(written.rows)}; Datenbankstand ${written.header.schema}).`,
      );
      return 0;
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOSPC'
          ? 'auf dem Datenträger ist kein Platz mehr'
          : (error as Error).message;
      io.err(
        `Die Sicherung nach ${file} ist fehlgeschlagen: ${reason}. ` +
          'Eine frühere Sicherung dort bleibt erhalten.',
      );
      return 1;
    }
  },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  // The running server, which writes the file, has a working folder of its own.
  process.exit(await runCommandLineTool(backupTool, argsFromCallersFolder()));
}
