import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupHeader, LineDigest } from './backup-file.js';
import { type BackedUpTable, backedUpTables, latestMigration } from './database-tables.js';

/** Rows read per query: a document version with its content is at most a few megabytes. */
const ROWS_PER_QUERY = 100;

export interface BackupOptions {
  /** Rows read per query (the tests make it small, so that every table takes several). */
  rowsPerQuery?: number;
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
  { rowsPerQuery = ROWS_PER_QUERY }: BackupOptions = {},
): Promise<WrittenBackup> {
  const partial = `${file}.partial`;
  const gzip = createGzip();
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
          rows[table.name] = await copyRows(trx, table, rowsPerQuery, addLine);
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
 * PGlite has all that while.
 */
async function copyRows(
  trx: Transaction<Database>,
  table: BackedUpTable,
  rowsPerQuery: number,
  addLine: (line: string) => Promise<void>,
): Promise<number> {
  let copied = 0;
  const columns = table.orderBy.map((column) => sql.ref(`t.${column}`));
  const order = sql.join(columns);
  // The last key as text, cast back to the column's type: a timestamp keeps its microseconds, which a
  // JavaScript Date would lose. The types come from PostgreSQL's catalogue, not from any input.
  const keys = sql.join(columns.map((column, index) => sql`${column}::text as ${sql.ref(`k${index}`)}`));
  let last: string[] | undefined;
  for (;;) {
    const after = last
      ? sql`where (${order}) > (${sql.join(
          last.map((value, index) => sql`cast(${value} as ${sql.raw(table.keyTypes[index] ?? 'text')})`),
        )})`
      : sql``;
    // row_to_json writes every type as PostgreSQL reads it back (bytea as \x…, timestamps with zone).
    const { rows } = await sql<Record<string, string> & { row: string }>`
      select row_to_json(t)::text as row, ${keys} from ${sql.table(table.name)} as t
      ${after} order by ${order} limit ${rowsPerQuery}`.execute(trx);
    for (const { row } of rows) await addLine(`{"r":${row}}`);
    copied += rows.length;
    const final = rows.at(-1);
    if (rows.length < rowsPerQuery || !final) return copied;
    last = table.orderBy.map((_, index) => final[`k${index}`] ?? '');
  }
}
