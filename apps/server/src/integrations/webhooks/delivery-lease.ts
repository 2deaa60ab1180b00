import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** A fresh lease token: set when a delivery is leased, cleared by „Erneut senden“. */
export const newLease = (): string => randomUUID();

/**
 * Locks a delivery's row and answers whether the attempt that leased it still holds its lease. An
 * attempt records its outcome only then: „Erneut senden“ while the receiver was answering cleared the
 * lease (and asked for an attempt of its own), and an attempt that outlived its lease was followed by
 * another's — either way, what this attempt would write is no longer its to write.
 */
export async function stillLeased(
  trx: Kysely<Database>,
  delivery: { id: string; lease: string | null },
): Promise<boolean> {
  if (delivery.lease === null) return false;
  const row = await trx
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('id', '=', delivery.id)
    .where('lease', '=', delivery.lease)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}
