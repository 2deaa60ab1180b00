import { randomBytes } from 'node:crypto';

/**
 * `length` random bytes that encode a positive DER INTEGER of exactly that length: the first byte in
 * 0x40–0x7f, so there is no sign bit and no leading zero. A leading zero before a byte below 0x80 is
 * not DER, and OpenSSL refuses it (a timestamp query with such a nonce is answered "Bad request
 * format"); clearing only the top bit would make one number in 256 so.
 */
export function randomPositiveInteger(length: number): Buffer {
  const bytes = randomBytes(length);
  bytes[0] = 0x40 | ((bytes[0] ?? 0) & 0x3f);
  return bytes;
}
