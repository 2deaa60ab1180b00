import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type ContractFiguresQuery, contractFiguresSchema } from '@vertragsgenerator/domain';
import { apiJson } from '@/lib/api';

export const FIGURES_QUERY_KEY = ['contract-figures'] as const;

export function figuresQueryOptions(query: ContractFiguresQuery) {
  const params = new URLSearchParams({ months: String(query.months) });
  if (query.company) params.set('company', query.company);
  return queryOptions({
    queryKey: [...FIGURES_QUERY_KEY, query],
    queryFn: ({ signal }) =>
      apiJson(`/backend/contract-figures?${params}`, contractFiguresSchema, { signal }),
    // The charts keep the last figures while another company's load.
    placeholderData: keepPreviousData,
  });
}
