import type { PGlite } from '@electric-sql/pglite';
import { createPGlite, type PGliteQueries, pgliteQueries } from '../db/pglite.js';

/**
 * In-memory PGlite databases loaded from one dump, used again once a test is done with them. Loading
 * the dump costs 1.1–2 CPU-seconds and most server tests open a database of their own; putting a used
 * instance back into the dump's state (`reset`) costs a small part of that. A closed database is reset
 * and parked, and the next `open` takes a parked instance, or loads a new one when none is parked. An
 * instance whose schema was changed, or whose reset failed, is closed instead: nothing a test did may
 * reach the next one.
 *
 * The pool lives as long as its module: in the server's test project a worker keeps its modules from one
 * test file to the next (`isolate: false`), so the instances serve all the files a worker runs.
 */
export class PGlitePool {
  readonly #dump: () => Promise<Blob>;
  readonly #maxParked: number;
  readonly #parked: Loaded[] = [];
  #loads = 0;

  /**
   * @param maxParked Instances kept for the next `open`. Each holds its WebAssembly memory and its
   *   files (150–200 MB), so a test that had several databases open at once must not leave them all
   *   behind in every worker.
   */
  constructor(dump: () => Promise<Blob>, { maxParked = 2 }: { maxParked?: number } = {}) {
    this.#dump = dump;
    this.#maxParked = maxParked;
  }

  /** How many instances were loaded from the dump: an `open` that reused one adds nothing. */
  get loads(): number {
    return this.#loads;
  }

  /** How many reset instances wait for an `open`. */
  get parked(): number {
    return this.#parked.length;
  }

  /**
   * A database in the dump's state, over the product's query path (`pgliteQueries`) with a cache of
   * prepared statements of its own. Its `close` resets the instance and parks it.
   */
  async open(): Promise<PGliteQueries> {
    const loaded = this.#parked.pop() ?? (await this.#load());
    return this.#lease(loaded);
  }

  /** Closes the parked instances. */
  async close(): Promise<void> {
    await Promise.all(this.#parked.splice(0).map(({ pglite }) => pglite.close()));
  }

  async #load(): Promise<Loaded> {
    const pglite = await createPGlite(undefined, { loadDataDir: await this.#dump() });
    this.#loads++;
    try {
      return { pglite, state: await recordState(pglite) };
    } catch (error) {
      await pglite.close();
      throw error;
    }
  }

  #lease(loaded: Loaded): PGliteQueries {
    const queries = pgliteQueries(loaded.pglite);
    let closed: Promise<void> | undefined;
    return {
      // Once closed, the instance may already serve another test: a statement of this one (from a job
      // still running after its test) must fail as on a closed database, not reach the other's data.
      query: (sql, parameters) =>
        closed ? Promise.reject(new Error('PGlite is closed')) : queries.query(sql, parameters),
      // A second close waits for the first one's reset instead of parking the instance twice.
      close: () => {
        closed ??= this.#release(loaded);
        return closed;
      },
    };
  }

  async #release(loaded: Loaded): Promise<void> {
    if (this.#parked.length < this.#maxParked) {
      let clean = false;
      try {
        clean = await reset(loaded.pglite, loaded.state);
      } catch {
        // A reset that failed leaves the instance in a state nobody knows: closed below, never reused.
      }
      // Another lease may have parked its instance while this one was being reset.
      if (clean && this.#parked.length < this.#maxParked) {
        this.#parked.push(loaded);
        return;
      }
    }
    await loaded.pglite.close();
  }
}

interface Loaded {
  pglite: PGlite;
  state: DumpState;
}

/** What `reset` puts back, recorded when the instance was loaded. */
interface DumpState {
  /** `schemaFingerprint` of the loaded instance: a reset one must have the same. */
  fingerprint: string;
  /** The statements that write back the dump's rows and sequence positions into emptied tables. */
  restore: string;
}

/**
 * PostgreSQL writes its log of changes (WAL) to files in memory and, running as a single process,
 * never checkpoints on its own, so the files add up test after test. An instance with more than this
 * is closed rather than parked: a fresh one has 16 MB, and a test with its reset adds from a few
 * hundred kB to a few MB, so an instance serves some dozens of tests before a new one is loaded.
 */
const MAX_WAL_BYTES = 64 * 2 ** 20;

/**
 * Puts a used instance back into the state it was loaded in, as far as a test can tell; answers false
 * when it cannot (a test changed the schema, or the instance has grown). The steps:
 * - ends the session's transaction, if any, and `DISCARD ALL` drops its prepared statements, cursors,
 *   settings, advisory locks, LISTENs, temporary tables and the sequences' `currval`;
 * - compares the schema's fingerprint with the one taken at load;
 * - empties the tables in one `TRUNCATE` (those of `USED_TABLES`), inserts the rows the dump had (the
 *   migrations' seeds) and sets every sequence to where it stood.
 */
async function reset(pglite: PGlite, state: DumpState): Promise<boolean> {
  // Unconditionally, after any statement a closing test still had queued; PostgreSQL only warns when
  // there is no transaction, and PGlite does not print the warning.
  await pglite.exec('rollback');
  await pglite.exec('discard all');
  if ((await schemaFingerprint(pglite)) !== state.fingerprint) return false;
  const [used] = await rowsOf<{ tables: string | null }>(pglite, USED_TABLES);
  // Foreign keys are not checked while the seeds go back (as in a restore of a dump), so the order of
  // the tables does not matter.
  await pglite.exec(
    [
      'begin',
      'set local session_replication_role = replica',
      ...(used?.tables ? [`truncate table ${used.tables} cascade`] : []),
      state.restore,
      'commit',
    ].join(';\n'),
  );
  const [wal] = await rowsOf<{ bytes: string }>(
    pglite,
    'select sum(size)::text as bytes from pg_ls_waldir()',
  );
  return Number(wal?.bytes) <= MAX_WAL_BYTES;
}

/**
 * Reads the tables' rows and the sequences' positions of a freshly loaded instance into the script
 * that restores them, and takes the schema's fingerprint.
 */
async function recordState(pglite: PGlite): Promise<DumpState> {
  const tables = await rowsOf<{ name: string; columns: string[]; identity: boolean }>(
    pglite,
    `select format('%I.%I', n.nspname, c.relname) as name,
            array_agg(format('%I', a.attname) order by a.attnum) filter (where a.attgenerated = '') as columns,
            bool_or(a.attidentity = 'a') as identity
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relkind in ('r', 'p') and ${userSchema('n')}
      group by 1
      order by 1`,
  );
  const sequences = await rowsOf<{ name: string }>(
    pglite,
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'S' and ${userSchema('n')}
      order by 1`,
  );
  const script: string[] = [];
  if (tables.length > 0) {
    // Each row as its record's text (`(t.*)::text`: a bare `t` would be a column of that name, if the
    // table has one), quoted by PostgreSQL: every column goes through its
    // type's own output and input functions, which carry bytea, timestamps, numerics and json exactly,
    // as `COPY` does. `only`: rows of inheriting tables and partitions are read with their own table.
    const contents = await rowsOf<{ name: string; rows: string | null }>(
      pglite,
      tables
        .map(
          ({ name }) =>
            `select ${literal(name)} as name, (select quote_literal(json_agg((t.*)::text)) from only ${name} t) as rows`,
        )
        .join(' union all '),
    );
    for (const { name, rows } of contents) {
      const table = tables.find((candidate) => candidate.name === name);
      // Generated columns compute their values again; a row of nothing but those cannot be inserted.
      if (!rows || !table?.columns) continue;
      const values = table.columns.map((column) => `(r).${column}`).join(', ');
      script.push(
        `insert into ${name} (${table.columns.join(', ')}) ${table.identity ? 'overriding system value ' : ''}` +
          `select ${values} from (select x::${name} as r from json_array_elements_text(${rows}::json) x) s`,
      );
    }
  }
  if (sequences.length > 0) {
    const positions = await rowsOf<{ name: string; last_value: string; is_called: boolean }>(
      pglite,
      sequences
        .map(
          ({ name }) =>
            `select ${literal(name)} as name, last_value::text as last_value, is_called from ${name}`,
        )
        .join(' union all '),
    );
    script.push(
      `select setval(name::regclass, last_value, is_called) from (values ${positions
        .map((p) => `(${literal(p.name)}, ${BigInt(p.last_value)}, ${p.is_called})`)
        .join(', ')}) as positions(name, last_value, is_called)`,
    );
  }
  return { fingerprint: await schemaFingerprint(pglite), restore: script.join(';\n') };
}

/** Namespaces of the product's objects, not PostgreSQL's own nor a session's temporary ones. */
const userSchema = (alias: string) =>
  `${alias}.nspname not in ('pg_catalog', 'information_schema') and ${alias}.nspname !~ '^pg_(toast|temp_|toast_temp_)'`;

/**
 * The tables to empty: every table that holds a row or has held one since the instance was loaded,
 * that is, has a page of storage (the seeded ones among them). A table without one is exactly as
 * loaded, and truncating all 60 tables, each with its indexes and the foreign keys' triggers, cost two
 * to three times as much as truncating those a test wrote to. `CASCADE` empties the tables that refer
 * to them as well, as PostgreSQL requires. Asked once the schema was found unchanged, so the tables are
 * those of the dump. (Not in a `DO` block: that would load PL/pgSQL into the session, and with it
 * settings a fresh instance does not show.)
 */
const USED_TABLES = `
select string_agg(format('%I.%I', n.nspname, c.relname), ', ') as tables
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
 where c.relkind = 'r' and ${userSchema('n')} and pg_relation_size(c.oid) > 0`;

/**
 * A digest of everything DDL can change: schemas, tables and their columns (types, defaults,
 * nullability, identity), indexes, constraints, triggers (also whether enabled), functions, views and
 * rules, sequences, types and enum labels, extensions, policies, inheritance, comments, grants and
 * owners, roles, databases and their settings, `ALTER SYSTEM`; and, for objects of any other kind, the
 * ids of those created after initdb. Statistics and row counts are left out: they follow the data.
 */
async function schemaFingerprint(pglite: PGlite): Promise<string> {
  // Names come out qualified with their schema, whatever search path the session had.
  const [, , digest] = await pglite.exec(`begin; set local search_path = pg_catalog; ${FINGERPRINT}; commit`);
  const row = digest?.rows[0] as { digest?: string } | undefined;
  if (!row?.digest) throw new Error('no schema fingerprint');
  return row.digest;
}

/** PostgreSQL's first id for objects created after initdb (`FirstNormalObjectId`). */
const FIRST_NORMAL_OID = 16384;

/** Catalogs of objects with an id that the detailed lines of `FINGERPRINT` do not describe. */
const OTHER_OBJECT_CATALOGS = [
  'pg_am',
  'pg_amop',
  'pg_amproc',
  'pg_cast',
  'pg_collation',
  'pg_conversion',
  'pg_event_trigger',
  'pg_foreign_data_wrapper',
  'pg_foreign_server',
  'pg_language',
  'pg_largeobject_metadata',
  'pg_opclass',
  'pg_operator',
  'pg_opfamily',
  'pg_publication',
  'pg_publication_rel',
  'pg_statistic_ext',
  'pg_subscription',
  'pg_tablespace',
  'pg_transform',
  'pg_ts_config',
  'pg_ts_dict',
  'pg_ts_parser',
  'pg_ts_template',
  'pg_user_mapping',
];

const USER_NAMESPACES = `(select oid from pg_namespace n where ${userSchema('n')})`;
const FINGERPRINT = `
select md5(string_agg(line, E'\\n' order by line)) as digest from (
  select concat_ws(' ', 'schema', nspname, nspowner::regrole, nspacl) as line
    from pg_namespace n where ${userSchema('n')}
  union all
  select concat_ws(' ', 'relation', oid::regclass, relkind, relowner::regrole, relacl, reloptions, relpersistence,
                   relrowsecurity, relforcerowsecurity, relreplident, relispartition, reltablespace,
                   pg_get_partkeydef(oid), pg_get_expr(relpartbound, oid))
    from pg_class where relnamespace in ${USER_NAMESPACES}
  union all
  select concat_ws(' ', 'column', a.attrelid::regclass, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod),
                   a.attnotnull, a.attisdropped, a.attidentity, a.attgenerated, a.attcollation, a.attstorage,
                   a.attacl, a.attoptions, pg_get_expr(d.adbin, d.adrelid))
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
   where c.relnamespace in ${USER_NAMESPACES} and a.attnum > 0
  union all
  select concat_ws(' ', 'index', indexrelid::regclass, pg_get_indexdef(indexrelid), indisclustered, indisreplident)
    from pg_index i join pg_class c on c.oid = i.indexrelid where c.relnamespace in ${USER_NAMESPACES}
  union all
  select concat_ws(' ', 'constraint', conname, conrelid::regclass, contypid::regtype, pg_get_constraintdef(oid),
                   convalidated)
    from pg_constraint where connamespace in ${USER_NAMESPACES}
  union all
  select concat_ws(' ', 'trigger', tgrelid::regclass, tgname, tgenabled, pg_get_triggerdef(oid)) from pg_trigger
  union all
  select concat_ws(' ', 'function', oid::regprocedure, prokind, prorettype::regtype, provolatile, proisstrict,
                   prosecdef, proconfig, proowner::regrole, proacl, md5(prosrc))
    from pg_proc where pronamespace in ${USER_NAMESPACES}
  union all
  select concat_ws(' ', 'rule', ev_class::regclass, rulename, ev_enabled, pg_get_ruledef(oid))
    from pg_rewrite where oid >= ${FIRST_NORMAL_OID}
  union all
  select concat_ws(' ', 'sequence', seqrelid::regclass, seqtypid::regtype, seqstart, seqincrement, seqmax, seqmin,
                   seqcache, seqcycle)
    from pg_sequence
  union all
  select concat_ws(' ', 'type', oid::regtype, typtype, typowner::regrole, typnotnull, typbasetype::regtype,
                   typtypmod, typdefault, typcollation, typacl)
    from pg_type where typnamespace in ${USER_NAMESPACES}
  union all
  select concat_ws(' ', 'enum', enumtypid::regtype, enumsortorder, enumlabel) from pg_enum
  union all
  select concat_ws(' ', 'extension', extname, extversion, extnamespace::regnamespace, extconfig, extcondition)
    from pg_extension
  union all
  select concat_ws(' ', 'policy', polrelid::regclass, polname, polcmd, polpermissive, polroles,
                   pg_get_expr(polqual, polrelid), pg_get_expr(polwithcheck, polrelid))
    from pg_policy
  union all
  select concat_ws(' ', 'inherits', inhrelid::regclass, inhparent::regclass, inhseqno) from pg_inherits
  union all
  select concat_ws(' ', 'comment', classoid::regclass, objoid, objsubid, description)
    from pg_description where objoid >= ${FIRST_NORMAL_OID}
  union all
  select concat_ws(' ', 'role', oid, rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin,
                   rolreplication, rolbypassrls, rolconnlimit, rolvaliduntil)
    from pg_roles
  union all
  select concat_ws(' ', 'member', roleid, member, admin_option) from pg_auth_members
  union all
  select concat_ws(' ', 'database', oid, datname, datdba, datallowconn, datconnlimit, datacl) from pg_database
  union all
  select concat_ws(' ', 'setting', setdatabase, setrole, setconfig) from pg_db_role_setting
  union all
  select concat_ws(' ', 'default acl', defaclrole, defaclnamespace, defaclobjtype, defaclacl) from pg_default_acl
  union all
  select concat_ws(' ', 'system settings', md5(pg_read_file('postgresql.auto.conf', 0, 1000000, true)))
  union all
  select concat_ws(' ', 'object', classid::regclass, objid)
    from (${OTHER_OBJECT_CATALOGS.map(
      (catalog) =>
        `select '${catalog}'::regclass as classid, oid as objid from ${catalog} where oid >= ${FIRST_NORMAL_OID}`,
    ).join(' union all ')}) o
) lines`;

async function rowsOf<Row>(pglite: PGlite, query: string): Promise<Row[]> {
  return (await pglite.query<Row>(query)).rows;
}

/** A string as an SQL literal; the names quoted here come from `format('%I')`. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
