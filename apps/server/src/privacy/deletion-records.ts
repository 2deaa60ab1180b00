import {
  type DeletionRecord,
  RETENTION_RULE_LABELS,
  type RetentionRuleName,
} from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';

/** The rule names a deletion record can carry besides the retention rules: an erase on request. */
export const ERASE_RULE = 'erase_request';

export function ruleLabel(rule: string): string {
  if (rule === ERASE_RULE) return 'Löschung auf Antrag (Art. 17 DSGVO)';
  return RETENTION_RULE_LABELS[rule as RetentionRuleName] ?? rule;
}

/**
 * What a match's history still says about its deleted documents, envelope files and signed PDFs uploaded
 * for its contracts, newest first.
 */
export async function deletionsOfMatch(db: Db, matchId: string): Promise<DeletionRecord[]> {
  const rows = await db
    .selectFrom('deletion_records')
    .selectAll()
    .where('match_id', '=', matchId)
    .where('kind', 'in', ['document', 'sealed_pdf', 'certificate', 'signed_pdf'])
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
  return rows.map((row) => ({
    kind: row.kind,
    subjectId: row.subject_id,
    docKey: row.doc_key,
    sha256: row.sha256,
    rule: row.rule,
    ruleLabel: ruleLabel(row.rule),
    at: row.at.toISOString(),
  }));
}
