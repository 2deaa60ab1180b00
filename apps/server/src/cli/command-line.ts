import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { loadProcessConfig } from '../config/config.js';
import { migrate, openDatabase } from '../db/database.js';
import { commandSocketPath, type SentFiles, sendToRunningServer } from './command-socket.js';
import { runTool } from './run-tool.js';
import type { CliOutput, CommandLineTool } from './tool.js';

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
