import { type messages, PGlite, protocol, types } from '@electric-sql/pglite';
import { LRUCache } from 'lru-cache';
import { prepareValue } from 'pg/lib/utils.js';
import { blankDumpFor } from './pglite-blank.js';

/** What kysely-pglite-dialect uses of a PGlite instance; the dialect's connection lock stays in use. */
export interface PGliteQueries {
  query(sql: string, parameters?: unknown[]): Promise<QueryResult>;
  close(): Promise<void>;
}
export interface QueryResult {
  rows: unknown[];
  affectedRows?: number;
  /** Whether the session is inside a transaction after the statement (PostgreSQL's ReadyForQuery). */
  transactionOpen: boolean;
}

/**
 * PostgreSQL's page cache inside PGlite's WebAssembly memory. PostgreSQL touches all of it when it
 * starts, so it is resident from the first moment: the default of 128 MB made the database thread a
 * third of the idle server's memory, and PGlite alone took 148 MiB at 32 MB and 132 MiB at 16 MB. The
 * files it caches are in the operating system's page cache as well, so a smaller one costs a system
 * call per page read, not a disk read (docs/performance.md: the HTTP figures with 128 and 32 MB).
 */
const SHARED_BUFFERS = '16MB';
/**
 * One session uses PGlite; PostgreSQL sizes its shared lock and process tables for this many (100 by
 * default), also at start.
 */
const MAX_CONNECTIONS = '10';

/**
 * The embedded database as this product opens it, in the server's thread or in a thread of its own.
 *
 * `PGlite.query` passes each statement through PostgreSQL in five calls (parse, describe the
 * statement, bind, describe the portal, execute) to learn the parameter types before it converts the
 * values, and plans it anew every time. Here the values are converted as node-postgres converts them
 * for the PostgreSQL server (so both databases see the same text), a statement with parameters is
 * prepared once under a name and then only bound and executed, and each exchange is one call. A
 * simple select took 280 µs through `PGlite.query` and takes 110 µs this way; the session lookup (a
 * join) takes 170 µs planned each time and 42 µs prepared.
 */
export async function openPGlite(
  dataDir: string | undefined,
  options: { loadDataDir?: Blob } = {},
): Promise<PGliteQueries> {
  return pgliteQueries(await createPGlite(dataDir, options));
}

/**
 * The PGlite instance `openPGlite` queries, with this product's settings. Separate from the query path
 * because the tests use one instance for several databases in turn, each with a query path (and
 * prepared statements) of its own.
 */
export async function createPGlite(
  dataDir: string | undefined,
  { loadDataDir }: { loadDataDir?: Blob } = {},
): Promise<PGlite> {
  // One options object: `PGlite.create(undefined, options)` ignores the options, so an in-memory
  // database went without the parsers and the buffer size below.
  return PGlite.create({
    dataDir,
    // The files of a database dumped earlier (`dumpDataDir`), instead of creating them: a new one
    // starts from the build's blank dump (pglite-blank.ts), and the tests start every database from
    // one migrated dump, in a quarter of initdb's CPU time.
    loadDataDir: loadDataDir ?? (await blankDumpFor(dataDir)),
    parsers: BYTEA_PARSERS,
    startParams: [
      ...PGlite.defaultStartParams,
      '-c',
      `shared_buffers=${SHARED_BUFFERS}`,
      '-c',
      `max_connections=${MAX_CONNECTIONS}`,
    ],
  });
}

/**
 * `openPGlite`'s query path over an open instance: statements prepared by name, values converted as
 * node-postgres converts them, one call per exchange. A new query path knows of no prepared statement
 * and names its own from the first again, so the session must have none either (a new session, or one
 * after `DISCARD ALL`). `close` closes the instance.
 */
export function pgliteQueries(pglite: PGlite): PGliteQueries {
  const statements = new PreparedStatements();
  const exchange = async (message: Uint8Array) => {
    const answer = await pglite.runExclusive(() => pglite.execProtocolStream(message, { syncToFs: false }));
    await pglite.syncToFs();
    return answer;
  };

  return {
    async query(sql, parameters = []) {
      // Statements without parameters are mostly DDL and migrations: not worth keeping.
      const statement = parameters.length > 0 ? statements.lookup(sql) : { name: '', prepared: false };
      const message = Buffer.concat([
        ...statements.takeClosed().map((name) => protocol.serialize.close({ type: 'S', name })),
        ...(statement.prepared ? [] : [protocol.serialize.parse({ name: statement.name, text: sql })]),
        // Buffers go in PostgreSQL's binary format, as bytes: no hex text for a document's content.
        protocol.serialize.bind({
          statement: statement.name,
          values: parameters.map((value) => prepareValue(value)),
        }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]);
      try {
        // PostgreSQL skips to the Sync after an error, so a failed statement leaves nothing half-done,
        // and the error (with its SQLSTATE) is thrown once all answers are read.
        const answer = await exchange(message);
        if (statement.name && !statement.prepared) statements.remember(sql, statement.name);
        return readResult(answer, pglite.parsers);
      } catch (error) {
        // A new statement may not have been prepared; one prepared before a table changed its
        // columns fails with 0A000 "cached plan must not change result type". Either way it is
        // prepared afresh next time.
        const stale = (error as { code?: unknown }).code === '0A000';
        if (statement.name && (!statement.prepared || stale)) statements.forget(sql, statement.name);
        throw error;
      }
    },
    close: () => pglite.close(),
  };
}

/**
 * Names of the statements prepared on this connection, the least recently used dropped beyond a
 * bound (each holds a plan in the database's memory). Dropped ones are closed with the next exchange.
 */
class PreparedStatements {
  static readonly LIMIT = 200;
  #closed: string[] = [];
  #names = new LRUCache<string, string>({
    max: PreparedStatements.LIMIT,
    dispose: (name) => this.#closed.push(name),
  });
  #counter = 0;

  lookup(sql: string): { name: string; prepared: boolean } {
    const name = this.#names.get(sql);
    return name ? { name, prepared: true } : { name: `vg_${++this.#counter}`, prepared: false };
  }

  remember(sql: string, name: string): void {
    this.#names.set(sql, name);
  }

  forget(sql: string, name: string): void {
    if (this.#names.get(sql) === name) this.#names.delete(sql);
    else this.#closed.push(name);
  }

  takeClosed(): string[] {
    return this.#closed.splice(0);
  }
}

/**
 * The rows and the affected-row count of one statement's answer, with the instance's parsers (its
 * array types and our bytea). PGlite's own `parseResults` copies that table of 316 parsers for every
 * statement, 80 µs each time, more than a simple select takes to run; looking one up costs nothing.
 */
function readResult(answer: messages.BackendMessage[], parsers: PGlite['parsers']): QueryResult {
  let columns: messages.Field[] = [];
  const rows: Record<string, unknown>[] = [];
  let affectedRows: number | undefined;
  let transactionOpen = false;
  for (const message of answer) {
    if (message.name === 'rowDescription') {
      columns = (message as messages.RowDescriptionMessage).fields;
    } else if (message.name === 'dataRow') {
      const values = (message as messages.DataRowMessage).fields;
      const row: Record<string, unknown> = {};
      columns.forEach((column, i) => {
        row[column.name] = types.parseType(values[i] ?? null, column.dataTypeID, parsers);
      });
      rows.push(row);
    } else if (message.name === 'commandComplete') {
      affectedRows = affectedRowCount((message as messages.CommandCompleteMessage).text);
    } else if (message.name === 'readyForQuery') {
      // 'I' outside a transaction, 'T' inside one, 'E' inside a failed one.
      transactionOpen = (message as messages.ReadyForQueryMessage).status !== 'I';
    }
  }
  return { rows, affectedRows, transactionOpen };
}

/** The count in a command tag: `INSERT 0 3`, `UPDATE 2`, `DELETE 1`; none for `SELECT 4`. */
function affectedRowCount(tag: string): number | undefined {
  const [command, ...numbers] = tag.split(' ');
  if (command === 'INSERT') return Number(numbers[1]);
  if (command === 'UPDATE' || command === 'DELETE' || command === 'MERGE' || command === 'COPY') {
    return Number(numbers[0]);
  }
  return undefined;
}

/**
 * PGlite reads bytea as hex text and converts it byte by byte in JavaScript, about 5 ms for a 30 kB
 * document; node's Buffer does the same conversion natively.
 */
const BYTEA_PARSERS = {
  [types.BYTEA]: (text: string) => {
    const bytes = Buffer.from(text.slice(2), 'hex');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
};
