import { skipToken, useQuery } from '@tanstack/react-query';
import { catalogueEntry, type DocumentCheck, documentCheckSchema } from '@vertragsgenerator/domain';
import { apiJson } from '@/lib/api';

export type MissingMatchValue = DocumentCheck['missing'][number];
export type OptionalClause = DocumentCheck['optionalClauses'][number];

/**
 * The match values the template of `docId` needs but the match lacks, and the optional clauses it offers
 * for this deal; asked only for catalogue keys.
 */
export function useDocumentCheck(docId: string | null, matchId: string) {
  const known = docId !== null && catalogueEntry(docId) !== undefined;
  return useQuery({
    queryKey: ['documentCheck', docId, matchId],
    queryFn: known
      ? ({ signal }) =>
          apiJson(
            `/backend/documentCheck/${encodeURIComponent(docId)}/${encodeURIComponent(matchId)}`,
            documentCheckSchema,
            { method: 'POST', signal },
          )
      : skipToken,
  });
}
