import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Db } from '../db/database.js';

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>;
const KEY_LENGTH = 32;

export interface IdpAccount {
  email: string;
  name: string;
}

/** Password hashes as `scrypt$<salt>$<hash>` (node's scrypt: no native add-on needed). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** Accounts of the embedded identity provider (only used when no external issuer is configured). */
export class IdpAccounts {
  constructor(private readonly db: Db) {}

  async find(email: string): Promise<IdpAccount | undefined> {
    return this.db
      .selectFrom('idp_accounts')
      .select(['email', 'name'])
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
  }

  /** Resolves the account for correct credentials; unknown e-mail and wrong password look the same. */
  async authenticate(email: string, password: string): Promise<IdpAccount | undefined> {
    const row = await this.db
      .selectFrom('idp_accounts')
      .selectAll()
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    if (!row) {
      await hashPassword(password); // same work as a real check: no timing hint that the e-mail is unknown
      return undefined;
    }
    return (await verifyPassword(password, row.password_hash))
      ? { email: row.email, name: row.name }
      : undefined;
  }

  async upsert(account: IdpAccount, password: string): Promise<void> {
    const values = {
      email: account.email.toLowerCase(),
      name: account.name,
      password_hash: await hashPassword(password),
    };
    await this.db
      .insertInto('idp_accounts')
      .values(values)
      .onConflict((oc) =>
        oc.column('email').doUpdateSet({ name: values.name, password_hash: values.password_hash }),
      )
      .execute();
  }
}
