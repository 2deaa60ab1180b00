import { createHash } from 'node:crypto';
import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { dueBefore, type RetentionPeriod } from '@vertragsgenerator/domain';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { auditDeletedBatch, recordDeletedRows } from './record-deletion.js';

/** A mail of the mail folder names one of these matches (by its id): a held one stays while the hold does. */
export function namesAnyMatch(text: string, matchIds: Iterable<string>): boolean {
  for (const matchId of matchIds) if (text.includes(matchId)) return true;
  return false;
}

/**
 * The mails the embedded mailer wrote to DATA_DIR/mail (.eml files): those older than the period go, in
 * batches, each an audit entry. A file that names a held match stays. The record and the audit entry
 * are written first and the files deleted after: a crash in between leaves a recorded mail on disk,
 * which the next run deletes and records once more — never a deleted mail without its record.
 */
export async function deleteMailFolderBatch(
  db: Db,
  audit: AuditLog,
  directory: string,
  period: RetentionPeriod,
  now: Date,
  limit: number,
): Promise<number> {
  let names: string[];
  try {
    names = (await readdir(directory)).filter((name) => name.endsWith('.eml')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const cutoff = dueBefore(now, period).getTime();
  const held = (
    await db.selectFrom('legal_holds').select('match_id').where('lifted_at', 'is', null).execute()
  ).map((row) => row.match_id);
  const deleted: { name: string; sha256: string }[] = [];
  for (const name of names) {
    if (deleted.length >= limit) break;
    const path = join(directory, name);
    const info = await stat(path).catch(() => undefined);
    if (!info || info.mtimeMs >= cutoff) continue;
    const content = await readFile(path);
    if (namesAnyMatch(content.toString('utf8'), held)) continue;
    deleted.push({ name, sha256: createHash('sha256').update(content).digest('hex') });
  }
  if (deleted.length === 0) return 0;
  await db.transaction().execute(async (trx) => {
    await recordDeletedRows(
      trx,
      now,
      'mails',
      'mail_file',
      deleted.map((file) => ({ subjectId: file.name, matchId: null, sha256: file.sha256 })),
    );
    await auditDeletedBatch(
      trx,
      audit,
      'mails',
      `${deleted.length} ${deleted.length === 1 ? 'Mail' : 'Mails'} aus dem Mail-Ordner`,
    );
  });
  for (const file of deleted) {
    await unlink(join(directory, file.name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  return deleted.length;
}
