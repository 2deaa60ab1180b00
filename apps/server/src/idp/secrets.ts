import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/database.js';

/**
 * Secrets of the embedded provider, created once and kept in the database: a restart (or another
 * replica) signs with the same key, so nobody is signed out.
 */
export interface IdpSecrets {
  signingKeys: JWK[];
  cookieKeys: string[];
}

export async function loadOrCreateIdpSecrets(db: Db): Promise<IdpSecrets> {
  const signingKeys = await loadOrCreate(db, 'signing-keys', async () => {
    const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
    const jwk = await exportJWK(privateKey);
    return [{ ...jwk, alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') }];
  });
  const cookieKeys = await loadOrCreate(db, 'cookie-keys', async () => [
    randomBytes(32).toString('base64url'),
  ]);
  return { signingKeys, cookieKeys };
}

/** Insert-if-absent, then read: when two processes start at once both end up with the same secret. */
async function loadOrCreate<T>(db: Db, name: string, create: () => Promise<T>): Promise<T> {
  const existing = await db
    .selectFrom('idp_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return existing.value as T;
  await db
    .insertInto('idp_secrets')
    .values({ name, value: JSON.stringify(await create()) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await db
    .selectFrom('idp_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return stored.value as T;
}

/** The public half of the signing keys, for verifying tokens without a round trip to ourselves. */
export function publicJwks(keys: JWK[]): { keys: JWK[] } {
  return {
    keys: keys.map(({ kty, n, e, crv, x, y, kid, alg, use }) => ({ kty, n, e, crv, x, y, kid, alg, use })),
  };
}
