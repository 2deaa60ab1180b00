import { createHash } from 'node:crypto';

/** Hex SHA-256: the fingerprint of tokens, templates, data and documents alike. */
export function sha256Hex(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
