import { type ContractsQuery, contractsQuerySchema } from '@vertragsgenerator/domain';
import { useLayoutEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
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
  const [params, setParams] = useSearchParams();
  const query = parseContractsQuery(params);
  // The address as the last change left it, which the page may not show yet: a navigation waits for the
  // session check, so a second change can come before the first has arrived — both stay. An address
  // this hook did not ask for (Back, Forward, a link) replaces it; one of its own arriving late does not.
  // Only an address the page has shown counts: React may render one it then throws away (a transition
  // overtaken by typing), so the refs change in an effect, never while rendering.
  const latest = useRef(params);
  const requested = useRef(new Set<string>());
  useLayoutEffect(() => {
    const arrived = params.toString();
    if (!requested.current.has(arrived)) latest.current = params;
    if (arrived === latest.current.toString()) requested.current.clear();
  }, [params]);
  const update: UpdateContractsQuery = (change, options) => {
    const next = contractsSearchParams({ ...parseContractsQuery(latest.current), page: 1, ...change });
    if (next.toString() === latest.current.toString()) return;
    latest.current = next;
    requested.current.add(next.toString());
    setParams(next, { replace: options?.replace === true });
  };
  return [query, update];
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
