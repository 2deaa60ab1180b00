import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { SIGNING_CODE_DIGITS } from '@vertragsgenerator/domain';

/**
 * The signer's code: random digits from the operating system's CSPRNG, kept only as an HMAC. The HMAC
 * names the recipient and the link the code went out for, so a code never matches another signer's or
 * another link's record, even where both drew the same digits.
 */

const CODE_SPACE = 10 ** SIGNING_CODE_DIGITS;

export function newSignerCode(): string {
  return randomInt(0, CODE_SPACE).toString().padStart(SIGNING_CODE_DIGITS, '0');
}

export interface CodeOwner {
  recipientId: string;
  /** The SHA-256 of the link token the code belongs to. */
  linkSha256: string;
}

export function signerCodeHmac(key: Buffer, owner: CodeOwner, code: string): string {
  return createHmac('sha256', key)
    .update(`signer-code:${owner.recipientId}:${owner.linkSha256}:${code}`)
    .digest('hex');
}

/** Compares in constant time, so the answer's timing tells nothing about how much of a guess matched. */
export function signerCodeMatches(key: Buffer, owner: CodeOwner, code: string, storedHmac: string): boolean {
  const given = Buffer.from(signerCodeHmac(key, owner, code), 'hex');
  const stored = Buffer.from(storedHmac, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * The address as the code step shows it to whoever holds the link: enough for the signer to recognise
 * their mailbox, too little to learn someone else's. `berta.kunde@kunde.de` → `b***@kunde.de`.
 */
export function maskedAddress(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${Array.from(email)[0]}***${email.slice(at)}`;
}
