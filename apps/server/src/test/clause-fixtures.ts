import type { ClauseContent, ContractKind, DocumentClause } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import { sha256Hex } from '../shared/sha256.js';

/** A clause's content of one variant that always applies. */
export const clauseContent = (
  de: string,
  en = 'Liability is limited to gross negligence.',
): ClauseContent => ({
  option: 'always',
  variants: [{ name: 'Standard', rule: null, de, en }],
});

/** The audit entries of `subject`, oldest first. */
export const auditEntries = (db: Db, subject: string) =>
  db
    .selectFrom('audit_entries')
    .select(['actor', 'action', 'old_value', 'new_value'])
    .where('subject', '=', subject)
    .orderBy('id')
    .execute();

/** The running contract `contractHolding` records: an Einzelauftrag of Elbwerk Logistik AG unless told otherwise. */
export interface HeldContract {
  docKey: string;
  fileName: string;
  kind: ContractKind;
  counterparty: string;
  endDate: string | null;
}
const EINZELAUFTRAG: HeldContract = {
  docKey: 'de-wm-k-ev-1',
  fileName: 'Einzelauftrag.docx',
  kind: 'einzelauftrag',
  counterparty: 'Elbwerk Logistik AG',
  endDate: '2027-12-31',
};

/** A signed contract of `matchId` whose stored document holds `clauses`; answers both ids. */
export async function contractHolding(
  db: Db,
  matchId: string,
  clauses: DocumentClause[],
  contract: Partial<HeldContract> = {},
): Promise<{ documentId: string; contractId: string }> {
  const { docKey, fileName, kind, counterparty, endDate } = { ...EINZELAUFTRAG, ...contract };
  const document = await db
    .insertInto('documents')
    .values({
      match_id: matchId,
      doc_key: docKey,
      form: 'docusign',
      created_by: 'legal@demo.local',
      status: 'ready',
      error: null,
      file_name: fileName,
      data: '{}',
      template_sha256: null,
      data_sha256: sha256Hex(new TextEncoder().encode(matchId)),
      clauses: JSON.stringify(clauses),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const record = await db
    .insertInto('contract_records')
    .values({
      source_kind: 'envelope',
      envelope_id: null,
      document_id: document.id,
      document_version: 1,
      match_id: matchId,
      doc_key: docKey,
      kind,
      company: 'wm',
      partner_type: 'k',
      language: 'de',
      counterparty,
      customer: counterparty,
      consultant: 'Anna Albrecht',
      parties: '[]',
      terms_source: 'document',
      start_date: '2026-01-01',
      end_date: endDate,
      notice_text: null,
      notice_rule_source: 'missing',
      last_notice_day: null,
      signed_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { documentId: document.id, contractId: record.id };
}
