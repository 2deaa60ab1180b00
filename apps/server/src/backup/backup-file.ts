import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';

/**
 * The backup file (docs/operations.md): gzip-compressed JSON lines, readable with `zcat`.
 *
 *   {"format":"vertragsgenerator-backup","formatVersion":1,"schema":"0010_access_requests",…}
 *   {"table":"users"}
 *   {"r":{…one row as PostgreSQL's row_to_json writes it…}}
 *   …
 *   {"end":{"users":12,…},"sha256":"…"}
 *
 * The last line holds the row count of every table and the SHA-256 of every line before it, so a
 * truncated or altered file is refused before anything is restored.
 */

export const BACKUP_FORMAT = 'vertragsgenerator-backup';
export const BACKUP_FORMAT_VERSION = 1;

export const backupHeaderSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.literal(BACKUP_FORMAT_VERSION),
  /** The last database migration of the server that wrote it. */
  schema: z.string().min(1),
  productVersion: z.string(),
  createdAt: z.string(),
  database: z.enum(['pglite', 'postgres']),
});
export type BackupHeader = z.infer<typeof backupHeaderSchema>;

const tableLineSchema = z.object({ table: z.string().regex(/^[a-z_][a-z0-9_]*$/) });
const rowLineSchema = z.object({ r: z.record(z.string(), z.unknown()) });
const endLineSchema = z.object({ end: z.record(z.string(), z.number().int().min(0)), sha256: z.string() });

/** A backup that cannot be restored, with the German reason an operator reads. */
export class BackupRefusedError extends Error {
  override name = 'BackupRefusedError';
}

/** Hashes the lines as they are written or read: the last line must carry the same digest. */
export class LineDigest {
  private readonly hash: Hash = createHash('sha256');
  add(line: string): void {
    this.hash.update(line).update('\n');
  }
  hex(): string {
    return this.hash.digest('hex');
  }
}

export type BackupEntry =
  | { kind: 'table'; table: string }
  | { kind: 'row'; table: string; row: Record<string, unknown> };

export interface CheckedBackup {
  header: BackupHeader;
  /** Rows per table, in the order the file lists the tables. */
  rows: Record<string, number>;
}

/**
 * Reads the whole file once and checks it: gzip intact, our format, every line well-formed, counts and
 * digest as the last line says. `onEntry` sees each table and row as it is read; the caller decides
 * what to do with them (nothing on the first pass, insert on the second).
 */
export async function readBackup(
  file: string,
  onEntry: (entry: BackupEntry) => Promise<void> = async () => {},
): Promise<CheckedBackup> {
  const notOurs = () =>
    new BackupRefusedError(
      `${file} ist keine Sicherung des Vertragsgenerators (npm run backup schreibt sie).`,
    );
  const input = createReadStream(file);
  const gunzip = createGunzip();
  let streamError: Error | undefined;
  input.on('error', (error) => {
    streamError = error;
    gunzip.destroy(error);
  });
  gunzip.on('error', (error) => {
    streamError ??= error;
  });
  const lines = createInterface({ input: input.pipe(gunzip), crlfDelay: Number.POSITIVE_INFINITY });

  const digest = new LineDigest();
  let header: BackupHeader | undefined;
  let table: string | undefined;
  const rows: Record<string, number> = {};
  let end: z.infer<typeof endLineSchema> | undefined;
  // What the caller's `onEntry` throws (a refused insert) is its own error, not a sign of a cut file.
  let entryError: unknown;
  const handOver = async (entry: BackupEntry) => {
    try {
      await onEntry(entry);
    } catch (error) {
      entryError = error;
      throw error;
    }
  };
  try {
    for await (const line of lines) {
      if (end) throw new BackupRefusedError(`${file} hat Daten nach ihrem Ende: Sie wurde verändert.`);
      const value = parseJson(line);
      if (!header) {
        const parsed = backupHeaderSchema.safeParse(value);
        if (!parsed.success) throw notOurs();
        header = parsed.data;
        digest.add(line);
        continue;
      }
      const row = rowLineSchema.safeParse(value);
      if (row.success && table !== undefined) {
        rows[table] = (rows[table] ?? 0) + 1;
        digest.add(line);
        await handOver({ kind: 'row', table, row: row.data.r });
        continue;
      }
      const tableLine = tableLineSchema.safeParse(value);
      if (tableLine.success) {
        table = tableLine.data.table;
        if (table in rows)
          throw new BackupRefusedError(`${file} nennt die Tabelle ${table} zweimal: Sie wurde verändert.`);
        rows[table] = 0;
        digest.add(line);
        await handOver({ kind: 'table', table });
        continue;
      }
      const endLine = endLineSchema.safeParse(value);
      if (!endLine.success)
        throw new BackupRefusedError(`${file} enthält eine unlesbare Zeile: Sie wurde verändert.`);
      end = endLine.data;
    }
  } catch (error) {
    if (error instanceof BackupRefusedError || error === entryError) throw error;
    if (!header) throw notOurs();
    throw truncated(file);
  }
  if (streamError) throw header ? truncated(file) : notOurs();
  if (!header) throw notOurs();
  if (!end) throw truncated(file);
  if (end.sha256 !== digest.hex() || !sameCounts(end.end, rows)) {
    throw new BackupRefusedError(
      `${file} stimmt nicht mit ihrer Prüfsumme überein: Sie wurde nach dem Schreiben verändert.`,
    );
  }
  return { header, rows };
}

/** What a backup holds, as both tools report it: `… Zeilen in … Tabellen, … Dokumente, … Umschläge`. */
export function describeRows(rows: Record<string, number>): string {
  const total = Object.values(rows).reduce((sum, count) => sum + count, 0);
  return (
    `${total} Zeilen in ${Object.keys(rows).length} Tabellen, ` +
    `${rows.documents ?? 0} Dokumente, ${rows.envelopes ?? 0} Umschläge`
  );
}

function truncated(file: string): BackupRefusedError {
  return new BackupRefusedError(
    `${file} ist unvollständig (abgeschnitten beim Kopieren oder bei vollem Datenträger). Bitte nimm eine andere Sicherung.`,
  );
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function sameCounts(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
