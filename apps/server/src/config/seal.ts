import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from './support.js';

/**
 * The company certificate that seals completed envelopes' PDFs; unset, the server seals with
 * a self-signed certificate of its own. The file is read here; whether the password opens it and the
 * certificate is valid is checked as the server starts (signature/seal/seal-store.ts), which stops there.
 */
export const SEAL_ENV = {
  SEAL_P12_FILE: z.string().min(1).optional(),
  SEAL_P12_PASSWORD: z.string().optional(),
};

type SealEnv = z.infer<z.ZodObject<typeof SEAL_ENV>>;

/** A company certificate named by SEAL_P12_FILE, as read from the file with SEAL_P12_PASSWORD. */
export interface ConfiguredSeal {
  p12: Buffer;
  passphrase: string;
}

export function sealConfig(e: SealEnv): ConfiguredSeal | undefined {
  if (!e.SEAL_P12_FILE) {
    if (e.SEAL_P12_PASSWORD !== undefined) {
      throw new ConfigError('Invalid configuration:\n  SEAL_P12_PASSWORD: set without SEAL_P12_FILE');
    }
    return undefined;
  }
  try {
    return { p12: readFileSync(resolve(e.SEAL_P12_FILE)), passphrase: e.SEAL_P12_PASSWORD ?? '' };
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  SEAL_P12_FILE: cannot read ${e.SEAL_P12_FILE} (${(error as Error).message})`,
    );
  }
}
