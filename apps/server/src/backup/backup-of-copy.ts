import { pgliteDatabase } from '../db/database.js';
import { openPGlite } from '../db/pglite.js';
import { type WrittenBackup, writeBackup } from './write-backup.js';

/**
 * Writes the backup of a copy of the embedded database's files and exits: started by
 * served-embedded-backup.ts as a process of its own, so that the server's one connection is free while
 * the rows are read, and the memory PGlite takes for reading them ends with this process. Answers on
 * stdout with the written backup as JSON, or with the error's code and message and exit code 1.
 */
const [copyDir, file, productVersion] = process.argv.slice(2);
if (!copyDir || !file || !productVersion) {
  process.stderr.write('usage: backup-of-copy <copied data directory> <backup file> <product version>\n');
  process.exit(2);
}
const pglite = await openPGlite(copyDir);
let answer: { written: WrittenBackup } | { failed: { code?: string; message: string } };
try {
  answer = {
    written: await writeBackup(pgliteDatabase(pglite), file, { productVersion, database: 'pglite' }),
  };
} catch (error) {
  const { code, message } = error as NodeJS.ErrnoException;
  answer = { failed: { code, message } };
}
// Closed here, not through Kysely, as in pglite-create.ts: an open PGlite keeps the process alive.
// The exit code is set after it: PGlite's shutdown sets one of its own.
await pglite.close();
process.stdout.write(JSON.stringify(answer), () => process.exit('written' in answer ? 0 : 1));
