import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { DatabaseInUseError } from '../db/database.js';

/** The configuration the server would use: command-line tools read the same variables. */
export function loadCliConfig(): Config {
  const { version } = JSON.parse(
    readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  };
  return loadConfig(process.env, version);
}

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
  const base = process.env.INIT_CWD ?? process.cwd();
  return process.argv.slice(2).map((arg) => (arg.startsWith('-') ? arg : resolve(base, arg)));
}
