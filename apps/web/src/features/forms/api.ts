import { skipToken, useQuery } from '@tanstack/react-query';
import { catalogueEntry } from '@vertragsgenerator/domain';
import { z } from 'zod';
import { apiJson } from '@/lib/api';

const documentCheckSchema = z.object({
  missing: z.array(z.object({ field: z.string(), label: z.string() })),
});
export type MissingMatchValue = z.infer<typeof documentCheckSchema>['missing'][number];

/** The match values the template of `docId` needs but the match lacks; asked only for catalogue keys. */
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
