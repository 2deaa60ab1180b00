import { constants } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { sql } from 'kysely';
import { DATA_DIR_LOCK, type Db } from '../db/database.js';
import { runSiblingProcess } from '../shared/worker-module.js';
import type { WrittenBackup } from './write-backup.js';

/** The copies are siblings of the data directory: on its file system, where copying is cheapest. */
export const COPY_PREFIX = '-backup-copy-';

/**
 * A backup of the embedded database while the server runs on it. Read through the server, the backup
 * held the database's one connection as long as it read, and every request waited for it to end: 26
 * seconds at p50 in the soak, and over a minute once there were thousands of signed contracts. Here the
 * connection is held only while PostgreSQL writes its buffers out (CHECKPOINT) and the files are
 * copied, inside a transaction, so that nothing writes and the thread is not replaced meanwhile; a
 * process of its own then opens the copy and writes the backup from it, and the copy is deleted. The
 * copy is a database shut down uncleanly at that checkpoint, which PostgreSQL opens as after a crash,
 * with nothing to replay. It needs the database's size again on disk while the backup runs.
 *
 * `onCopied` is told when the server's connection is free again (the tests ask the database then).
 */
export async function writeServedEmbeddedBackup(
  db: Db,
  dataDir: string,
  file: string,
  productVersion: string,
  { onCopied }: { onCopied?: () => void } = {},
): Promise<WrittenBackup> {
  const copy = await mkdtemp(`${dataDir}${COPY_PREFIX}`);
  try {
    await db.transaction().execute(async (trx) => {
      await sql`checkpoint`.execute(trx);
      await cp(dataDir, copy, {
        recursive: true,
        // A clone of the file where the file system can (btrfs, XFS), a copy elsewhere.
        mode: constants.COPYFILE_FICLONE,
        // The lock belongs to this server, not to the copy.
        filter: (source) => basename(source) !== DATA_DIR_LOCK,
      });
    });
    onCopied?.();
    return await backupInOwnProcess(copy, resolve(file), productVersion);
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

async function backupInOwnProcess(
  copy: string,
  file: string,
  productVersion: string,
): Promise<WrittenBackup> {
  let stdout: string;
  try {
    ({ stdout } = await runSiblingProcess(import.meta.url, 'backup-of-copy', [copy, file, productVersion], {
      maxBuffer: 1024 * 1024,
    }));
  } catch (error) {
    const { stdout: answer, stderr } = error as { stdout?: string; stderr?: string };
    const failed = failure(answer);
    // The error as the tool reports it: a full disk keeps its code.
    throw Object.assign(new Error(failed?.message ?? (stderr?.trim() || (error as Error).message)), {
      code: failed?.code,
    });
  }
  const { written } = JSON.parse(stdout) as { written?: WrittenBackup };
  if (!written) throw new Error(`the backup process answered without a backup: ${stdout.slice(0, 300)}`);
  return written;
}

/** The failure the backup process reported, if it got as far as reporting one. */
function failure(answer: string | undefined): { code?: string; message: string } | undefined {
  try {
    return answer
      ? (JSON.parse(answer) as { failed?: { code?: string; message: string } }).failed
      : undefined;
  } catch {
    return undefined;
  }
}
