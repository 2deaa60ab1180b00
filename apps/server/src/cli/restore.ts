import { BackupRefusedError, describeRows } from '../backup/backup-file.js';
import { restoreBackup } from '../backup/restore-backup.js';
import { loadProcessConfig } from '../config/config.js';
import { openDatabase } from '../db/database.js';
import { argsFromCallersFolder, runTool } from './run-tool.js';

const USAGE = `Verwendung:
  npm run restore -- <datei>

Spielt eine Sicherung (npm run backup) in eine leere Datenbank zurück: in einen leeren DATA_DIR, oder mit
DATABASE_URL in eine leere PostgreSQL-Datenbank — so zieht eine Installation von der eingebauten Datenbank
nach PostgreSQL um (docs/operations.md). Der Server läuft dabei nicht.`;

/** Restores a backup into the database the server would use (same variables); returns the exit code. */
export async function runRestore(args: string[]): Promise<number> {
  return runTool(async () => {
    const [file, ...more] = args;
    if (!file || more.length > 0 || file.startsWith('-')) {
      console.error(USAGE);
      return 1;
    }
    const config = loadProcessConfig();
    const target = config.database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : config.dataDir;
    const db = await openDatabase(config.database);
    try {
      const restored = await restoreBackup(db, file);
      console.log(
        `Wiederhergestellt in ${target}: ${describeRows(restored.rows)} ` +
          `(Sicherung vom ${restored.header.createdAt}, Version ${restored.header.productVersion}).`,
      );
      return 0;
    } catch (error) {
      if (!(error instanceof BackupRefusedError)) throw error;
      console.error(error.message);
      return 1;
    } finally {
      await db.destroy();
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(await runRestore(argsFromCallersFolder()));
}
