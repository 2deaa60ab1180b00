import { readFileSync } from 'node:fs';
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
