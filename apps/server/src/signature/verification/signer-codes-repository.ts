import type { Selectable } from 'kysely';
import type { SignerCodesTable } from '../../db/schema.js';
import type { Executor } from '../envelopes-repository.js';

export type SignerCodeRow = Selectable<SignerCodesTable>;

/** What is stored of a code and its confirmation; one row per link holder, for one link. */
export type SignerCodeRecord = Omit<SignerCodeRow, 'recipient_id'>;

/** Where codes are kept: `signer_codes` for signers (migration 0014), `reviewer_codes` for reviewers (0036). */
export type CodesTable = 'signer_codes' | 'reviewer_codes';

export interface CodesRepository {
  find(recipientId: string, executor: Executor): Promise<SignerCodeRow | undefined>;
  /** Writes the whole record of a link holder, replacing what was stored for an earlier link. */
  save(recipientId: string, record: SignerCodeRecord, executor: Executor): Promise<void>;
}

/** The two tables have the same columns; the queries are typed against the signers' one. */
export function codesRepository(table: CodesTable): CodesRepository {
  const name = table as 'signer_codes';
  return {
    find(recipientId, executor) {
      return executor.selectFrom(name).selectAll().where('recipient_id', '=', recipientId).executeTakeFirst();
    },
    async save(recipientId, record, executor) {
      await executor
        .insertInto(name)
        .values({ recipient_id: recipientId, ...record })
        .onConflict((conflict) => conflict.column('recipient_id').doUpdateSet(record))
        .execute();
    },
  };
}

export const signerCodesRepository: CodesRepository = codesRepository('signer_codes');
