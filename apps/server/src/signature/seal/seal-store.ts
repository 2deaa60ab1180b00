import type { ConfiguredSeal } from '../../config/seal.js';
import type { Db } from '../../db/database.js';
import { createSelfSignedSeal, readSealP12, type SealCertificate } from './seal-certificate.js';

/**
 * The seal this server signs with: the company certificate when one is configured (checked here, at
 * start: a wrong password or an expired certificate stops the start), otherwise the self-signed one in
 * the database, made on the first start. Replicas starting at once both make one; the first insert
 * wins and both read it back, so every replica seals with the same certificate.
 */
export async function loadSeal(
  db: Db,
  {
    configured,
    commonName,
    now = new Date(),
  }: { configured?: ConfiguredSeal; commonName: string; now?: Date },
): Promise<SealCertificate> {
  if (configured) return readSealP12(configured.p12, configured.passphrase, now);
  const stored = await storedSeal(db);
  if (stored) return readSealP12(Buffer.from(stored.p12), stored.passphrase, now);
  const made = await createSelfSignedSeal(commonName, now);
  await db
    .insertInto('seal_certificate')
    .values({ p12: made.p12, passphrase: made.passphrase, fingerprint: made.fingerprint })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  const kept = await storedSeal(db);
  if (!kept) throw new Error('the seal certificate was stored but cannot be read back');
  return readSealP12(Buffer.from(kept.p12), kept.passphrase, now);
}

function storedSeal(db: Db) {
  return db
    .selectFrom('seal_certificate')
    .select(['p12', 'passphrase'])
    .where('id', '=', 1)
    .executeTakeFirst();
}
