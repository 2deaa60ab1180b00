import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

/** What the configuration files of every area share: the error that stops the start, and its helpers. */

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function readConfigFile(variable: string, path: string): string {
  try {
    return readFileSync(resolve(path), 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  ${variable}: cannot read ${path} (${(error as Error).message})`,
    );
  }
}

export const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Where the repository keeps companies, signatories, demo data and CRM presets. */
export const REPOSITORY_CONFIG_DIR = new URL('../../../../config', import.meta.url).pathname;
