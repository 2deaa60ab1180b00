import { queryOptions } from '@tanstack/react-query';
import {
  type LegalHold,
  legalHoldSchema,
  type PersonErase,
  type PersonExport,
  type PersonSearch,
  personEraseSchema,
  personExportSchema,
  personSearchSchema,
  type RetentionPeriod,
  type RetentionRule,
  type RetentionRuleName,
  retentionOverviewSchema,
  retentionRuleSchema,
} from '@vertragsgenerator/domain';
import { apiFetch, apiJson } from '@/lib/api';
import { downloadFile } from '@/lib/download';
import { ADMINISTRATION_QUERY_KEY } from './api';

export const retentionQueryOptions = queryOptions({
  queryKey: [...ADMINISTRATION_QUERY_KEY, 'retention'],
  queryFn: () => apiJson('/backend/admin/retention', retentionOverviewSchema),
});

export function changeRetentionRule(
  rule: RetentionRuleName,
  period: RetentionPeriod,
): Promise<RetentionRule[]> {
  return apiJson(`/backend/admin/retention/${rule}`, retentionRuleSchema.array(), {
    method: 'PUT',
    body: { period },
  });
}

export function placeLegalHold(matchId: string, reason: string): Promise<LegalHold> {
  return apiJson('/backend/admin/legal-holds', legalHoldSchema, {
    method: 'POST',
    body: { matchId, reason },
  });
}

export function liftLegalHold(id: string): Promise<LegalHold> {
  return apiJson(`/backend/admin/legal-holds/${encodeURIComponent(id)}/lift`, legalHoldSchema, {
    method: 'POST',
  });
}

export function searchPerson(query: string): Promise<PersonSearch> {
  return apiJson('/backend/admin/person-data/search', personSearchSchema, {
    method: 'POST',
    body: { query },
  });
}

/** Makes the export and downloads it at once; the server keeps it a day. */
export async function exportPerson(query: string): Promise<PersonExport> {
  const made = await apiJson('/backend/admin/person-data/exports', personExportSchema, {
    method: 'POST',
    body: { query },
  });
  const response = await apiFetch(`/backend/admin/person-data/exports/${encodeURIComponent(made.id)}`);
  downloadFile(await response.blob(), `Auskunft-${query.replace(/[^\p{L}\p{N}._-]+/gu, '_')}.zip`);
  return made;
}

/** Whom an erase names: the e-mail address, or the full name of a person known here by name only. */
export type ErasedPerson = { email: string } | { name: string };

export function erasePerson(person: ErasedPerson): Promise<PersonErase> {
  return apiJson('/backend/admin/person-data/erase', personEraseSchema, {
    method: 'POST',
    body: { ...person, confirm: true },
  });
}
