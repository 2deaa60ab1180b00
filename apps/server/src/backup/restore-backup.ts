import { Migrator, sql, type Transaction } from 'kysely';
import { type Db, migrate } from '../db/database.js';
import { migrationProvider } from '../db/migrations/index.js';
import type { Database } from '../db/schema.js';
import { BackupRefusedError, type CheckedBackup, readBackup } from './backup-file.js';

/** Rows inserted per statement; a batch also ends at this many bytes of JSON. */
const ROWS_PER_INSERT = 100;
const BYTES_PER_INSERT = 8 * 1024 * 1024;

/**
 * Restores a backup into an empty database, embedded or PostgreSQL: the move from the embedded default
 * to PostgreSQL is exactly this (docs/operations.md). The file is read and checked completely before the
 * database is touched; then the schema is built up to the backup's migration, every row goes in within
 * one transaction (checked again as it is read, so a file changed meanwhile leaves nothing behind), the
 * counters of generated IDs continue after the restored rows, and the migrations since run as at start.
 */
export async function restoreBackup(db: Db, file: string): Promise<CheckedBackup> {
  const checked = await readBackup(file);
  const known = Object.keys(await migrationProvider.getMigrations()).sort();
  if (!known.includes(checked.header.schema)) {
    throw new BackupRefusedError(
      `Die Sicherung stammt von einer neueren Version des Vertragsgenerators (${checked.header.productVersion}, ` +
        `Datenbankstand ${checked.header.schema}); diese kennt höchstens ${known.at(-1)}. ` +
        'Stelle sie mit derselben oder einer neueren Version wieder her.',
    );
  }
  await refuseNonEmpty(db);

  const migrator = new Migrator({ db, provider: migrationProvider });
  const built = await migrator.migrateTo(checked.header.schema);
  if (built.error) throw new Error('building the schema of the backup failed', { cause: built.error });

  await db.transaction().execute(async (trx) => {
    const batch: { table?: string; rows: Record<string, unknown>[]; bytes: number } = { rows: [], bytes: 0 };
    const flush = async () => {
      if (batch.table && batch.rows.length > 0) await insertRows(trx, batch.table, batch.rows);
      batch.rows = [];
      batch.bytes = 0;
    };
    await readBackup(file, async (entry) => {
      if (entry.kind === 'table') {
        await flush();
        batch.table = entry.table;
        // The database was empty before the schema was built: rows present now were seeded by a
        // migration (e.g. the default approval rules), and the backup holds them as they were then.
        await sql`delete from ${sql.table(entry.table)}`.execute(trx);
        return;
      }
      batch.rows.push(entry.row);
      batch.bytes += JSON.stringify(entry.row).length;
      if (batch.rows.length >= ROWS_PER_INSERT || batch.bytes >= BYTES_PER_INSERT) await flush();
    });
    await flush();
    await continueGeneratedIds(trx);
  });
  await migrate(db);
  return checked;
}

/** Only into nothing: restoring over data would mix two databases' rows and IDs. */
async function refuseNonEmpty(db: Db): Promise<void> {
  const { rows } = await sql<{ tables: string }>`
    select count(*) as tables from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  if (Number(rows[0]?.tables ?? 0) > 0) {
    throw new BackupRefusedError(
      'Das Ziel ist nicht leer: Es enthält schon eine Datenbank des Vertragsgenerators. Eine Sicherung wird nur ' +
        'in einen leeren DATA_DIR oder eine leere PostgreSQL-Datenbank (DATABASE_URL) zurückgespielt.',
    );
  }
}

async function insertRows(trx: Transaction<Database>, table: string, rows: Record<string, unknown>[]) {
  // json_populate_recordset reads each value as the column's type, the reverse of row_to_json;
  // OVERRIDING SYSTEM VALUE keeps the IDs of identity columns as they were.
  await sql`
    insert into ${sql.table(table)} overriding system value
    select * from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows)}::json)`.execute(
    trx,
  );
}

/** Serial and identity columns: the next generated ID comes after the highest restored one. */
async function continueGeneratedIds(trx: Transaction<Database>): Promise<void> {
  const { rows } = await sql<{ table: string; column: string }>`
    select table_name as table, column_name as column from information_schema.columns
    where table_schema = current_schema()
      and (column_default like 'nextval(%' or is_identity = 'YES')`.execute(trx);
  for (const { table, column } of rows) {
    await sql`
      select setval(pg_get_serial_sequence(${table}, ${column}),
        coalesce((select max(${sql.ref(column)}) from ${sql.table(table)}), 0) + 1, false)`.execute(trx);
  }
}
