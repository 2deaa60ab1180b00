import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { envelopeOverviewSchema, type OverviewQuery } from '@vertragsgenerator/domain';
import { apiJson } from '@/lib/api';

export function overviewQueryOptions(query: OverviewQuery) {
  const params = new URLSearchParams({ status: query.status, page: String(query.page) });
  if (query.q) params.set('q', query.q);
  return queryOptions({
    queryKey: ['signature-overview', query],
    queryFn: ({ signal }) =>
      apiJson(`/backend/signature/envelopes?${params}`, envelopeOverviewSchema, { signal }),
    // The table keeps the last page while the next filter or page loads.
    placeholderData: keepPreviousData,
  });
}
