import { queryOptions } from '@tanstack/react-query';
import {
  type ClauseDetail,
  type ClauseSettings,
  type ClauseVersion,
  clauseComparisonSchema,
  clauseDetailSchema,
  clauseListSchema,
  clauseTrialSchema,
  clauseVersionSchema,
  type NewClause,
  type NewClauseVersion,
  type PublishTemplate,
} from '@vertragsgenerator/domain';
import { apiFetch, apiJson } from '@/lib/api';

const clauseApiPath = (key: string) => `/backend/clauses/${encodeURIComponent(key)}`;
const versionPath = (key: string, version: number) => `${clauseApiPath(key)}/versions/${version}`;

/** The start of every clause query's key: invalidating it reloads the list and each clause. */
export const CLAUSES_QUERY_KEY = ['clauses'] as const;

export const clauseListQueryOptions = queryOptions({
  queryKey: CLAUSES_QUERY_KEY,
  queryFn: ({ signal }) => apiJson('/backend/clauses', clauseListSchema, { signal }),
});

export const clauseQueryOptions = (key: string) =>
  queryOptions({
    queryKey: [...CLAUSES_QUERY_KEY, key],
    queryFn: ({ signal }) => apiJson(clauseApiPath(key), clauseDetailSchema, { signal }),
  });

/**
 * A version's text against `base` (the published one when null). A version never changes, but what is
 * published may: the published version is part of the key.
 */
export const comparisonQueryOptions = (
  key: string,
  version: number,
  base: number | null,
  published: number | null,
) =>
  queryOptions({
    queryKey: [...CLAUSES_QUERY_KEY, key, 'comparison', version, base, published],
    queryFn: ({ signal }) =>
      apiJson(
        `${versionPath(key, version)}/compare${base === null ? '' : `?base=${base}`}`,
        clauseComparisonSchema,
        { signal },
      ),
    staleTime: Number.POSITIVE_INFINITY,
  });

export function createClause(clause: NewClause): Promise<ClauseDetail> {
  return apiJson('/backend/clauses', clauseDetailSchema, { method: 'POST', body: clause });
}

export function changeSettings(key: string, settings: ClauseSettings): Promise<ClauseDetail> {
  return apiJson(clauseApiPath(key), clauseDetailSchema, { method: 'PUT', body: settings });
}

export async function deleteClause(key: string): Promise<void> {
  await apiFetch(clauseApiPath(key), { method: 'DELETE' });
}

export function saveVersion(key: string, version: NewClauseVersion): Promise<ClauseVersion> {
  return apiJson(`${clauseApiPath(key)}/versions`, clauseVersionSchema, { method: 'POST', body: version });
}

export function publishVersion(
  key: string,
  version: number,
  publication: PublishTemplate,
): Promise<ClauseDetail> {
  return apiJson(`${versionPath(key, version)}/publish`, clauseDetailSchema, {
    method: 'POST',
    body: publication,
  });
}

/** `matchId` empty: the server's demo deal. Nothing is stored, so a POST that is asked again is harmless. */
export function tryVersion(key: string, version: number, matchId: string) {
  return apiJson(`${versionPath(key, version)}/trial`, clauseTrialSchema, {
    method: 'POST',
    body: matchId ? { matchId } : {},
  });
}
