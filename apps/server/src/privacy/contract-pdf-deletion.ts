import { dueBefore, type RetentionPeriod } from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { Database } from '../db/schema.js';
import { ruleLabel } from './deletion-records.js';
import { RETENTION_ACTOR } from './document-deletion.js';
import { heldMatches } from './legal-holds.js';
import { auditDeletedBatch } from './record-deletion.js';

/** The deletion record's kind of a signed PDF legal uploaded for a document signed elsewhere. */
export const SIGNED_PDF_KIND = 'signed_pdf';

/** The history entry of a contract record whose uploaded signed PDF a rule deleted. */
export const CONTRACT_FILES_DELETED_EVENT = 'files_deleted';

/**
 * Deletes up to `limit` signed PDFs uploaded for documents signed elsewhere whose signature is older than
 * the rule for completed contracts — the rule a completed envelope's sealed PDF goes by, counted from the
 * signature as that one is from the completion — in one transaction: a deletion record of each with its
 * SHA-256, an entry in the record's history naming the rule, one audit entry. The contract record stays
 * with its dates and names; a held match keeps its PDFs. Returns how many went.
 */
export async function deleteSignedPdfBatch(
  trx: Kysely<Database>,
  audit: AuditLog,
  period: RetentionPeriod,
  now: Date,
  limit: number,
): Promise<number> {
  const rows = await trx
    .selectFrom('contract_records')
    .select([
      'id',
      'match_id',
      'doc_key',
      sql<string>`coalesce(signed_pdf_sha256, encode(sha256(signed_pdf), 'hex'))`.as('sha256'),
    ])
    .where(sql<boolean>`signed_pdf is not null`)
    .where('signed_at', '<', dueBefore(now, period))
    .where(sql<boolean>`match_id not in ${heldMatches}`)
    .orderBy('signed_at')
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (rows.length === 0) return 0;
  const ids = rows.map((row) => row.id);
  await trx
    .insertInto('deletion_records')
    .values(
      rows.map((row) => ({
        at: now,
        rule: 'completed_contracts',
        kind: SIGNED_PDF_KIND,
        subject_id: row.id,
        match_id: row.match_id,
        doc_key: row.doc_key,
        sha256: row.sha256,
      })),
    )
    .execute();
  // The column is written once, at the upload; only this rule clears it.
  await sql`update contract_records set signed_pdf = null where id in (${sql.join(ids)})`.execute(trx);
  await trx
    .insertInto('contract_events')
    .values(
      ids.map((id) => ({
        contract_id: id,
        type: CONTRACT_FILES_DELETED_EVENT,
        actor: RETENTION_ACTOR,
        detail: `Unterschriebenes PDF gelöscht, Regel „${ruleLabel('completed_contracts')}“`,
        at: now,
      })),
    )
    .execute();
  await auditDeletedBatch(
    trx,
    audit,
    'completed_contracts',
    `${rows.length} ${rows.length === 1 ? 'hochgeladenes unterschriebenes PDF' : 'hochgeladene unterschriebene PDFs'} von Verträgen`,
  );
  return rows.length;
}
