import { type Kysely, sql } from 'kysely';

/**
 * What a backup reads of the database itself: its tables in an order that restores (a table after the
 * tables its foreign keys point to), and the migration it is at. Read from PostgreSQL's catalogue, so a
 * new table is backed up without a change here.
 */

// biome-ignore lint/suspicious/noExplicitAny: the catalogue queries work on any schema
type AnyDb = Kysely<any>;

export interface BackedUpTable {
  name: string;
  /** The primary key: the order rows are read in, stable within the backup's snapshot. */
  orderBy: string[];
  /** The SQL types of those columns, as PostgreSQL names them: a key read as text is cast back to them. */
  keyTypes: string[];
}

/** Kysely's own bookkeeping: recreated by migrating to the backup's schema, not copied. */
const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock'];

export async function backedUpTables(db: AnyDb): Promise<BackedUpTable[]> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
    order by table_name`.execute(db);
  const { rows: references } = await sql<{ child: string; parent: string }>`
    select child.relname as child, parent.relname as parent
    from pg_constraint c
    join pg_class child on child.oid = c.conrelid
    join pg_class parent on parent.oid = c.confrelid
    join pg_namespace n on n.oid = c.connamespace
    where c.contype = 'f' and n.nspname = current_schema()`.execute(db);
  const names = tables.map((t) => t.name).filter((name) => !MIGRATION_TABLES.includes(name));
  const ordered = parentsFirst(names, references);
  const result: BackedUpTable[] = [];
  for (const name of ordered) {
    const key = await primaryKey(db, name);
    result.push({ name, orderBy: key.map((k) => k.column), keyTypes: key.map((k) => k.type) });
  }
  return result;
}

async function primaryKey(db: AnyDb, table: string): Promise<{ column: string; type: string }[]> {
  const { rows } = await sql<{ column: string; type: string }>`
    select a.attname as column, format_type(a.atttypid, a.atttypmod) as type
    from pg_index i
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
    where i.indrelid = ${table}::regclass and i.indisprimary
    order by array_position(i.indkey, a.attnum)`.execute(db);
  if (rows.length === 0) throw new Error(`table ${table} has no primary key: its rows have no stable order`);
  return rows;
}

/** Depth-first: a table comes after every table it references; a self-reference is no dependency. */
function parentsFirst(names: string[], references: { child: string; parent: string }[]): string[] {
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (name: string, path: Set<string>) => {
    if (placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const { parent } of references.filter((r) => r.child === name && r.parent !== name)) {
      if (names.includes(parent)) visit(parent, path);
    }
    placed.add(name);
    ordered.push(name);
  };
  for (const name of names) visit(name, new Set());
  return ordered;
}

/** The name of the last migration applied: the schema a backup was taken at. */
export async function latestMigration(db: AnyDb): Promise<string> {
  const { rows } = await sql<{ name: string }>`
    select name from kysely_migration order by name desc limit 1`.execute(db);
  const name = rows[0]?.name;
  if (!name) throw new Error('the database has no migrations applied');
  return name;
}
