import { type ContractsQuery, contractsQuerySchema } from '@vertragsgenerator/domain';
import { useAddressQuery } from '@/lib/use-address-query';
import { contractsSearchParams } from './api';

const DEFAULTS = contractsQuerySchema.parse({});

/**
 * The view an address names. A value the schema refuses (an address typed by hand, or of an older
 * version) is left out, not the whole view: `?status=unknown&kind=einzelauftrag` still filters by kind.
 */
function parseContractsQuery(params: URLSearchParams): ContractsQuery {
  const raw: Record<string, string> = Object.fromEntries(params);
  const parsed = contractsQuerySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) delete raw[String(issue.path[0])];
  const again = contractsQuerySchema.safeParse(raw);
  return again.success ? again.data : DEFAULTS;
}

/** Whether the view is narrowed by anything but its sort and page. */
export function isFiltered(query: ContractsQuery): boolean {
  const { sort: _sort, direction: _direction, page: _page, ...filters } = query;
  return Object.values(filters).some((value) => value !== undefined && value !== '');
}

/** `replace`: the change continues the one before (typing on), so Back skips it. */
export type UpdateContractsQuery = (change: Partial<ContractsQuery>, options?: { replace?: boolean }) => void;

/**
 * The filters, search, sort and page as the address keeps them: a link names the view, and Back and
 * Forward go through the views one by one (a filter typed in is one step, however long the typing took).
 * Any change but the page's starts on the first page.
 */
export function useContractsQuery(): [ContractsQuery, UpdateContractsQuery] {
  const [query, change] = useAddressQuery(parseContractsQuery, contractsSearchParams);
  return [query, (update, options) => change((current) => ({ ...current, page: 1, ...update }), options)];
}

/** Every filter off (the sort and page are not filters). */
export const NO_FILTERS: Partial<ContractsQuery> = {
  q: '',
  company: undefined,
  customer: '',
  consultant: '',
  kind: undefined,
  status: undefined,
  endsWithin: undefined,
  noticeWithin: undefined,
  withoutFramework: undefined,
};
