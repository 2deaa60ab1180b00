import type { Selectable } from 'kysely';
import type { SignerCodesTable } from '../../db/schema.js';
import type { Executor } from '../envelopes-repository.js';

export type SignerCodeRow = Selectable<SignerCodesTable>;

/** What is stored of a signer's code and its confirmation; one row per signer, for one link. */
export type SignerCodeRecord = Omit<SignerCodeRow, 'recipient_id'>;

/** The `signer_codes` table (migration 0014). */
export const signerCodesRepository = {
  find(recipientId: string, executor: Executor): Promise<SignerCodeRow | undefined> {
    return executor
      .selectFrom('signer_codes')
      .selectAll()
      .where('recipient_id', '=', recipientId)
      .executeTakeFirst();
  },

  /** Writes the whole record of a signer, replacing what was stored for an earlier link. */
  async save(recipientId: string, record: SignerCodeRecord, executor: Executor): Promise<void> {
    await executor
      .insertInto('signer_codes')
      .values({ recipient_id: recipientId, ...record })
      .onConflict((conflict) => conflict.column('recipient_id').doUpdateSet(record))
      .execute();
  },
};
