import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  type ContractsQuery,
  contractRecordSchema,
  contractsPageSchema,
  contractsQuerySchema,
  type NoticeRuleChange,
} from '@vertragsgenerator/domain';
import { apiFetch, apiJson } from '@/lib/api';
import { downloadFile } from '@/lib/download';

/** The start of every list query's key: invalidating it reloads whichever page is shown. */
export const CONTRACTS_QUERY_KEY = ['contracts'] as const;

const DEFAULTS = contractsQuerySchema.parse({});

/**
 * The filters as the address and the API write them: only what differs from the defaults, in a fixed
 * order, so that one view has one address.
 */
export function contractsSearchParams(query: ContractsQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['q', 'company', 'customer', 'consultant', 'kind', 'status'] as const) {
    const value = query[key];
    if (value) params.set(key, value);
  }
  if (query.endsWithin !== undefined) params.set('endsWithin', String(query.endsWithin));
  if (query.noticeWithin !== undefined) params.set('noticeWithin', String(query.noticeWithin));
  if (query.withoutFramework) params.set('withoutFramework', 'true');
  if (query.sort !== DEFAULTS.sort) params.set('sort', query.sort);
  if (query.direction !== DEFAULTS.direction) params.set('direction', query.direction);
  if (query.page > 1) params.set('page', String(query.page));
  return params;
}

export function contractsQueryOptions(query: ContractsQuery) {
  const params = contractsSearchParams(query).toString();
  return queryOptions({
    queryKey: [...CONTRACTS_QUERY_KEY, 'list', query],
    queryFn: ({ signal }) =>
      apiJson(`/backend/contracts${params ? `?${params}` : ''}`, contractsPageSchema, { signal }),
    // The table keeps the last page while the next filter or page loads.
    placeholderData: keepPreviousData,
  });
}

export function contractQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...CONTRACTS_QUERY_KEY, 'record', id],
    queryFn: ({ signal }) =>
      apiJson(`/backend/contracts/${encodeURIComponent(id)}`, contractRecordSchema, { signal }),
  });
}

export type ExportFormat = 'csv' | 'xlsx';

/**
 * The current view (every page of it) as a file, saved by the browser. The API needs the ID token, so
 * the file is fetched and saved from an object URL; a view too large answers 422 `export_too_large`.
 */
export async function downloadContractsExport(query: ContractsQuery, format: ExportFormat): Promise<void> {
  const params = contractsSearchParams({ ...query, page: 1 });
  params.set('format', format);
  const response = await apiFetch(`/backend/contracts/export?${params}`);
  downloadFile(await response.blob(), `Vertraege.${format}`);
}

export async function setNoticeRule(id: string, change: NoticeRuleChange): Promise<void> {
  await apiFetch(`/backend/contracts/${encodeURIComponent(id)}/notice-rule`, { method: 'PUT', body: change });
}
