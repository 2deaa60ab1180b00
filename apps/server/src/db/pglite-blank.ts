import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/**
 * A blank embedded database's files — PostgreSQL's initdb done, nothing else — which `npm run build`
 * dumps once, and which every new database is then started from instead of running initdb again.
 * initdb in WebAssembly took 6.9 CPU-seconds (5 s) for a new data folder on two cores; loading the dump
 * takes 1.2. Every first start of a server, every new data folder a restore or a command-line tool
 * creates, and every fresh database of the test runs paid it.
 *
 * The files belong to one PGlite version (its PostgreSQL's catalogue), so the file is named after it: after
 * an update of PGlite without a new build, databases are created by initdb as before. The path is the
 * same from the compiled module (dist/db) and from its source (src/db), so tests running the sources
 * use the build's dump where there is one.
 */
const pgliteVersion: string = JSON.parse(
  readFileSync(
    join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json'),
    'utf8',
  ),
).version;

export const BLANK_DUMP_FILE = fileURLToPath(
  new URL(`../../dist/pglite-blank-${pgliteVersion}.tar.gz`, import.meta.url),
);

/**
 * The dump to create a database in `dataDir` from, when there is one and the folder holds no database
 * yet; undefined otherwise (PGlite then opens the files there, or runs initdb). An in-memory database
 * (no folder) is new every time.
 */
export async function blankDumpFor(
  dataDir: string | undefined,
  file = BLANK_DUMP_FILE,
): Promise<Blob | undefined> {
  if (dataDir !== undefined && existsSync(join(dataDir, 'PG_VERSION'))) return undefined;
  if (!existsSync(file)) return undefined;
  return new Blob([await readFile(file)]);
}

/**
 * Runs initdb in memory and writes its files to `file`, compressed (4 MB instead of 39), replacing the
 * dumps of other PGlite versions beside it.
 */
export async function writeBlankDump(file = BLANK_DUMP_FILE): Promise<void> {
  const pglite = await PGlite.create();
  try {
    const dump = await pglite.dumpDataDir('gzip');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pglite.close();
  }
  const folder = dirname(file);
  for (const name of readdirSync(folder)) {
    if (/^pglite-blank-.*\.tar\.gz$/.test(name) && name !== basename(file)) rmSync(join(folder, name));
  }
}
