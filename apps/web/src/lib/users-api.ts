import { useQuery } from '@tanstack/react-query';
import { type DirectoryUser, directoryUserSchema } from '@vertragsgenerator/domain';
import { z } from 'zod';
import { apiJson } from './api';

/** The staff directory changes rarely; five minutes spares a call per form. */
const USERS_STALE_TIME_MS = 5 * 60 * 1000;

const byName = (a: DirectoryUser, b: DirectoryUser) => a.Name.localeCompare(b.Name, 'de');

/** The staff directory (`GET /backend/users`), sorted by name: feeds sender and CC lists. */
export function useDirectoryUsers() {
  return useQuery({
    queryKey: ['users'],
    queryFn: ({ signal }) => apiJson('/backend/users', z.array(directoryUserSchema), { signal }),
    staleTime: USERS_STALE_TIME_MS,
    select: (users) => users.toSorted(byName),
  });
}
