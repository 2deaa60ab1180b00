import { PGlite } from '@electric-sql/pglite';

/**
 * Creates the embedded database's files in `DATA_DIR` (PostgreSQL's initdb inside PGlite) and exits.
 * Run as a process of its own by pglite-thread.ts: the creation grows PGlite's memory by about
 * 500 MB, and only the end of a process gives all of it back — after a thread that ended, the
 * server kept about 190 MiB more than after a restart (the C allocator keeps what it freed).
 */
const dataDir = process.argv[2];
if (!dataDir) {
  process.stderr.write('usage: pglite-create <data directory>\n');
  process.exit(2);
}
const pglite = await PGlite.create(dataDir);
await pglite.close();
