import { useLayoutEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

/** Changes a view into the next; `replace`: the change continues the one before (typing on), so Back skips it. */
export type ChangeAddressQuery<Q> = (change: (current: Q) => Q, options?: { replace?: boolean }) => void;

/**
 * A list's view — filters, search, sort, page — as the address keeps it, so that a reload, a shared link
 * or Back shows the same: the view the address names, and the way to change it.
 *
 * Every navigation waits for the session check before the address changes, so a second change can come
 * before the first has arrived (a search fires 300 ms after the last key, perhaps just after a filter was
 * chosen): it builds on the first, not on the address the first has not yet replaced, and both stay. An
 * address this hook did not ask for (Back, Forward, a link) replaces what it asked for; one of its own
 * arriving late does not. Only an address the page has shown counts: React may render one it then throws
 * away (a transition overtaken by typing), so the refs change in an effect, never while rendering.
 */
export function useAddressQuery<Q>(
  read: (params: URLSearchParams) => Q,
  write: (query: Q) => URLSearchParams,
): [Q, ChangeAddressQuery<Q>] {
  const [params, setParams] = useSearchParams();
  const latest = useRef(params);
  const requested = useRef(new Set<string>());
  useLayoutEffect(() => {
    const arrived = params.toString();
    if (!requested.current.has(arrived)) latest.current = params;
    if (arrived === latest.current.toString()) requested.current.clear();
  }, [params]);
  const change: ChangeAddressQuery<Q> = (next, options) => {
    const address = write(next(read(latest.current)));
    if (address.toString() === latest.current.toString()) return;
    latest.current = address;
    requested.current.add(address.toString());
    setParams(address, { replace: options?.replace === true });
  };
  return [read(params), change];
}

/**
 * The address of a list filtered by status and searched, page by page (Signaturen, Freigaben): each left out
 * at its default — the open ones, no search, the first page — so that the list's plain address stays plain.
 */
export function listAddress({
  status,
  q,
  page,
}: {
  status: string;
  q: string;
  page: number;
}): URLSearchParams {
  const search = new URLSearchParams();
  if (status !== 'open') search.set('status', status);
  if (q) search.set('q', q);
  if (page > 1) search.set('page', String(page));
  return search;
}
