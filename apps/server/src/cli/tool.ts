import type { Db } from '../db/database.js';

/** What every command-line tool is given and must provide, wherever it runs. */

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

/** What a tool works with, in its own process or inside the running server. */
export interface ToolContext {
  db: Db;
  /** Who acts, for the audit log: `cli:<operating-system user>`. */
  actor: string;
  /** ADMIN_EMAILS. */
  administrators: ReadonlySet<string>;
  /** The product version and the kind of database: a backup records both. */
  productVersion: string;
  databaseKind: 'pglite' | 'postgres';
  /**
   * Inside a server running on the embedded database: its files, which a backup copies and reads in
   * a process of its own rather than holding the server's one connection while it reads.
   */
  servedDataDir?: string;
  /** CONFIG_DIR: companies, signatories and demo matches, for tools that render documents. */
  configDir: string;
  /** Reads a file the caller named: from disk, or as the caller sent it to the running server. */
  readText(path: string): Promise<string>;
}

/** A command-line tool that can run beside a running server on the embedded database. */
export interface CommandLineTool {
  name: string;
  /** The files among the arguments that the tool reads; the caller reads them, not the server. */
  files(args: string[]): string[];
  run(args: string[], context: ToolContext, io: CliOutput): Promise<number>;
}
