import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { envelopeOverviewSchema, type OverviewQuery } from '@vertragsgenerator/domain';
import { apiJson } from '@/lib/api';

/** The start of every overview query's key: invalidating it reloads whichever page is shown. */
export const OVERVIEW_QUERY_KEY = ['signature-overview'] as const;

export function overviewQueryOptions(query: OverviewQuery) {
  const params = new URLSearchParams({ status: query.status, page: String(query.page) });
  if (query.q) params.set('q', query.q);
  return queryOptions({
    queryKey: [...OVERVIEW_QUERY_KEY, query],
    queryFn: ({ signal }) =>
      apiJson(`/backend/signature/envelopes?${params}`, envelopeOverviewSchema, { signal }),
    // The table keeps the last page while the next filter or page loads.
    placeholderData: keepPreviousData,
  });
}
