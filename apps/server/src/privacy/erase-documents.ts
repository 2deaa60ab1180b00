import {
  dueAt,
  OPEN_ENVELOPE_STATUSES,
  RETENTION_RULE_LABELS,
  type RetainedItem,
} from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import type { Periods } from './document-deletion.js';

/** The rule a legal hold is listed under in an erase's answer. */
export const HOLD_RULE = 'Aufbewahrungssperre';

/**
 * Which of the documents that name a person an erase may delete now, and which a duty keeps — a legal
 * hold, a completed contract, an envelope still running, a business letter — listed with the rule and
 * the date it will go.
 */
export async function sortDocuments(
  db: Db,
  documentIds: ReadonlySet<string>,
  held: ReadonlySet<string>,
  periods: Periods,
): Promise<{ toDelete: string[]; retained: RetainedItem[] }> {
  const toDelete: string[] = [];
  const retained: RetainedItem[] = [];
  if (documentIds.size === 0) return { toDelete, retained };
  const documents = await db
    .selectFrom('documents as d')
    .select(['d.id', 'd.match_id', 'd.status', 'd.created_at', 'd.file_name'])
    .where('d.id', 'in', [...documentIds])
    .execute();
  const envelopesOf = await db
    .selectFrom('envelopes')
    .select(['id', 'document_id', 'status', 'completed_at', 'updated_at'])
    .where('document_id', 'in', [...documentIds])
    .execute();
  for (const document of documents) {
    const envelopes = envelopesOf.filter((e) => e.document_id === document.id);
    const completed = envelopes.find((e) => e.status === 'completed');
    const item = { what: `Dokument ${document.file_name}`, id: document.id, matchId: document.match_id };
    if (held.has(document.match_id)) {
      retained.push({ ...item, rule: HOLD_RULE, until: null });
    } else if (completed) {
      const period = periods.completed_contracts;
      retained.push({
        ...item,
        what: `Vertrag ${document.file_name} (abgeschlossen)`,
        rule: RETENTION_RULE_LABELS.completed_contracts,
        until: period ? dueAt(completed.completed_at ?? completed.updated_at, period).toISOString() : null,
      });
    } else if (envelopes.some((e) => OPEN_ENVELOPE_STATUSES.includes(e.status))) {
      retained.push({ ...item, rule: 'Umschlag läuft noch', until: null });
    } else if (document.status === 'ready' && envelopes.length === 0) {
      const period = periods.generated_documents;
      retained.push({
        ...item,
        rule: RETENTION_RULE_LABELS.generated_documents,
        until: period ? dueAt(document.created_at, period).toISOString() : null,
      });
    } else {
      toDelete.push(document.id);
    }
  }
  return { toDelete, retained };
}
