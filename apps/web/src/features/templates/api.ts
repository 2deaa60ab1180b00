import { queryOptions } from '@tanstack/react-query';
import { placeholderDictionarySchema } from '@vertragsgenerator/domain';
import { apiJson } from '../../lib/api';

export const placeholdersQueryOptions = queryOptions({
  queryKey: ['template-placeholders'],
  queryFn: ({ signal }) =>
    apiJson('/backend/templates/placeholders', placeholderDictionarySchema, { signal }),
  staleTime: 5 * 60_000,
});
