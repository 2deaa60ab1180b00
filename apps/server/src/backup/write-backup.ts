import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { constants, createGzip } from 'node:zlib';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupHeader, LineDigest } from './backup-file.js';
import { type BackedUpTable, backedUpTables, latestMigration } from './database-tables.js';

/** Rows read per query at most; a batch of large rows (files, mails) is cut to about BYTES_PER_QUERY. */
const ROWS_PER_QUERY = 100;
/**
 * About the JSON one query reads: PGlite builds a whole result in its WebAssembly memory, which never
 * shrinks again, and hands it to the server as one message, so a hundred mails or signed PDFs at once
 * would leave the embedded database that much larger for good.
 */
const BYTES_PER_QUERY = 4 * 1024 * 1024;

export interface BackupOptions {
  /** Rows read per query at most (the tests make it small, so that every table takes several). */
  rowsPerQuery?: number;
  /** About the bytes of JSON one query reads. */
  bytesPerQuery?: number;
}

export interface WrittenBackup {
  file: string;
  bytes: number;
  rows: Record<string, number>;
  header: BackupHeader;
}

/**
 * Writes a consistent backup of every table while the server keeps serving: one read-only transaction
 * at REPEATABLE READ sees the database as it was when it began, whatever is written meanwhile. The file
 * appears under its name only once complete (written as `<file>.partial`, synced, renamed), so a full
 * disk or a crash leaves the previous backup of that name as it was.
 */
export async function writeBackup(
  db: Db,
  file: string,
  meta: Pick<BackupHeader, 'productVersion' | 'database'>,
  { rowsPerQuery = ROWS_PER_QUERY, bytesPerQuery = BYTES_PER_QUERY }: BackupOptions = {},
): Promise<WrittenBackup> {
  const partial = `${file}.partial`;
  // The fastest level: most of a backup is files, mails and signatures that are compressed or
  // encrypted already. The default level took twice as long for 2 % less, and on the embedded database
  // every request waits while the backup's transaction holds its one connection.
  const gzip = createGzip({ level: constants.Z_BEST_SPEED, chunkSize: 256 * 1024 });
  const written = pipeline(gzip, createWriteStream(partial));
  // Reported by `written`; without a listener here an early failure would also be thrown unhandled.
  written.catch(() => {});
  const digest = new LineDigest();
  const writeLine = async (line: string) => {
    if (!gzip.write(`${line}\n`)) await Promise.race([once(gzip, 'drain'), written]);
  };
  const addLine = async (line: string) => {
    digest.add(line);
    await writeLine(line);
  };

  try {
    const { header, rows } = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await sql`set transaction read only`.execute(trx);
        const header: BackupHeader = {
          format: BACKUP_FORMAT,
          formatVersion: BACKUP_FORMAT_VERSION,
          schema: await latestMigration(trx),
          createdAt: new Date().toISOString(),
          ...meta,
        };
        await addLine(JSON.stringify(header));
        const rows: Record<string, number> = {};
        for (const table of await backedUpTables(trx)) {
          await addLine(JSON.stringify({ table: table.name }));
          rows[table.name] = await copyRows(trx, table, { rowsPerQuery, bytesPerQuery }, addLine);
        }
        return { header, rows };
      });
    await writeLine(JSON.stringify({ end: rows, sha256: digest.hex() }));
    gzip.end();
    await written;
    const handle = await open(partial, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
    return { file, bytes: (await stat(file)).size, rows, header };
  } catch (error) {
    gzip.destroy();
    await written.catch(() => {});
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * A table's rows in primary-key order, a batch at a time, each batch after the last key of the one
 * before: with OFFSET, PostgreSQL would read and convert every row skipped again, so a backup took time
 * (and, on PGlite, memory) growing with the square of a table's rows, holding the one connection
 * PGlite has all that while. The next batch is read while the last one is compressed, so the backup
 * takes about the longer of the two, not their sum.
 */
async function copyRows(
  trx: Transaction<Database>,
  table: BackedUpTable,
  batchSize: Required<BackupOptions>,
  addLine: (line: string) => Promise<void>,
): Promise<number> {
  let copied = 0;
  let limit = batchSize.rowsPerQuery;
  let rows = await readBatch(trx, table, undefined, limit);
  for (;;) {
    const final = rows.at(-1);
    let next: Promise<KeyedRow[]> | undefined;
    if (rows.length === limit && final !== undefined) {
      limit = nextLimit(rows, batchSize);
      const last = table.orderBy.map((_, index) => final[`k${index}`] ?? '');
      next = readBatch(trx, table, last, limit);
    }
    try {
      for (const { row } of rows) await addLine(`{"r":${row}}`);
    } catch (error) {
      // The transaction ends with the error: not while its connection still answers the next batch.
      await next?.catch(() => {});
      throw error;
    }
    copied += rows.length;
    if (!next) return copied;
    rows = await next;
  }
}

type KeyedRow = Record<string, string> & { row: string };

async function readBatch(
  trx: Transaction<Database>,
  table: BackedUpTable,
  last: string[] | undefined,
  limit: number,
): Promise<KeyedRow[]> {
  const columns = table.orderBy.map((column) => sql.ref(`t.${column}`));
  const order = sql.join(columns);
  // The last key as text, cast back to the column's type: a timestamp keeps its microseconds, which a
  // JavaScript Date would lose. The types come from PostgreSQL's catalogue, not from any input.
  const keys = sql.join(columns.map((column, index) => sql`${column}::text as ${sql.ref(`k${index}`)}`));
  const after = last
    ? sql`where (${order}) > (${sql.join(
        last.map((value, index) => sql`cast(${value} as ${sql.raw(table.keyTypes[index] ?? 'text')})`),
      )})`
    : sql``;
  // row_to_json writes every type as PostgreSQL reads it back (bytea as \x…, timestamps with zone).
  const { rows } = await sql<KeyedRow>`
    select row_to_json(t)::text as row, ${keys} from ${sql.table(table.name)} as t
    ${after} order by ${order} limit ${limit}`.execute(trx);
  return rows;
}

/**
 * The next batch's rows: as many as make about `bytesPerQuery`, judged by the rows just read (a table's
 * rows are alike), at least one and at most `rowsPerQuery`.
 */
export function nextLimit(
  rows: readonly { row: string }[],
  { rowsPerQuery, bytesPerQuery }: Required<BackupOptions>,
): number {
  const bytes = rows.reduce((sum, { row }) => sum + row.length, 0);
  const perRow = Math.max(1, bytes / Math.max(1, rows.length));
  return Math.max(1, Math.min(rowsPerQuery, Math.floor(bytesPerQuery / perRow)));
}
