import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { type MatchAnswer, matchAnswerSchema } from '@vertragsgenerator/domain';
import { apiJson } from '@/lib/api';

/** Long enough to carry a match from /start through a form, short enough to pick up corrections from the CRM. */
const MATCH_STALE_TIME_MS = 5 * 60 * 1000;

function fetchMatch(matchId: string, signal: AbortSignal): Promise<MatchAnswer> {
  return apiJson(`/backend/match/${encodeURIComponent(matchId)}`, matchAnswerSchema, {
    method: 'POST',
    signal,
  });
}

/**
 * The match of an already normalised ID, kept only in the query cache
 * (docs/decisions.md#match-values-not-in-local-storage). The start page looks it up and the forms show
 * it from the same cache entry.
 * Without an ID nothing is fetched and the query stays pending.
 */
export function matchQueryOptions(matchId: string | null) {
  return queryOptions({
    queryKey: ['match', matchId],
    queryFn: matchId === null ? skipToken : ({ signal }) => fetchMatch(matchId, signal),
    staleTime: MATCH_STALE_TIME_MS,
  });
}

export function useMatch(matchId: string | null) {
  return useQuery(matchQueryOptions(matchId));
}
