import { migrate, pgliteDatabase } from './database.js';
import { openPGlite } from './pglite.js';
import { MIGRATED } from './pglite-thread.js';

/**
 * Creates the embedded database in `DATA_DIR` (PostgreSQL's initdb inside PGlite) and exits; with
 * `--migrated`, the server's start, it applies the migrations first. Run as a process of its own by
 * pglite-thread.ts: the creation grows PGlite's memory by about 500 MB, and only the end of a process
 * gives all of it back — after a thread that ended, the server kept about 190 MiB more than after a
 * restart (the C allocator keeps what it freed). The migrations, most of a new database's statements,
 * run here for the same reason: run by the server, what PGlite compiled and allocated for them stayed,
 * and a first start was resident 20 to 30 MiB above a restart. The server then finds every migration
 * applied, as after a restart. A restore wants the database empty, without them.
 */
const [dataDir, ...flags] = process.argv.slice(2);
if (!dataDir) {
  process.stderr.write(`usage: pglite-create <data directory> [${MIGRATED}]\n`);
  process.exit(2);
}
const pglite = await openPGlite(dataDir);
if (flags.includes(MIGRATED)) await migrate(pgliteDatabase(pglite));
// Closed here, not through Kysely: its destroy closes only a driver that has run a statement, and an
// open PGlite kept this process, and the start waiting for it, about ten seconds longer.
await pglite.close();
