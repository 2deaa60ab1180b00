import { resolve } from 'node:path';
import { ConfigError, callersFolder } from '../config/config.js';
import { DatabaseInUseError } from '../db/database.js';

/** Runs a tool to its exit code; configuration errors end it with their message instead of a trace. */
export async function runTool(work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    console.error(
      error instanceof ConfigError || error instanceof DatabaseInUseError ? error.message : error,
    );
    return 1;
  }
}

/**
 * The command's arguments with file names made absolute: npm runs scripts in the repository folder, so a
 * relative name means the folder the command was called from (INIT_CWD). Options stay as they are.
 */
export function argsFromCallersFolder(): string[] {
  const base = callersFolder();
  return process.argv.slice(2).map((arg) => (arg.startsWith('-') ? arg : resolve(base, arg)));
}
