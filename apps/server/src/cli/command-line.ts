import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { loadProcessConfig } from '../config/config.js';
import { type Db, migrate, openDatabase } from '../db/database.js';
import { commandSocketPath, type SentFiles, sendToRunningServer } from './command-socket.js';
import { runTool } from './run-tool.js';

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

const consoleOutput: CliOutput = { out: (line) => console.log(line), err: (line) => console.error(line) };

/**
 * Runs a tool on the database the server would use (same variables, same migrations). The embedded
 * database belongs to one process: while a server runs on it, the tool hands its work to that server
 * over the server's command socket, so it neither waits for a stop nor the server for a restart, and
 * the server sees the change at once. Returns the exit code.
 */
export async function runCommandLineTool(tool: CommandLineTool, args: string[]): Promise<number> {
  return runTool(async () => {
    const config = loadProcessConfig();
    const actor = `cli:${userInfo().username}`;
    if (config.database.kind === 'pglite') {
      const files: SentFiles = {};
      for (const path of tool.files(args)) {
        // An unreadable file is the tool's to report, in its own words: it gets the reason.
        files[path] = await readFile(path, 'utf8').then(
          (text) => ({ text }),
          (error: Error) => ({ error: error.message }),
        );
      }
      const answer = await sendToRunningServer(
        commandSocketPath(config.dataDir),
        { tool: tool.name, args, actor, files },
        consoleOutput,
      );
      if (answer !== 'no server') return answer;
    }
    const db = await openDatabase(config.database);
    try {
      await migrate(db);
      return await tool.run(
        args,
        {
          db,
          actor,
          administrators: config.admin.administrators,
          productVersion: config.version,
          databaseKind: config.database.kind,
          configDir: config.configDir,
          readText: (path) => readFile(path, 'utf8'),
        },
        consoleOutput,
      );
    } finally {
      await db.destroy();
    }
  });
}
