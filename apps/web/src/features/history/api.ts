import { queryOptions, useQuery } from '@tanstack/react-query';
import { type HistoryEntry, matchHistorySchema } from '@vertragsgenerator/domain';
import { apiFetch, apiJson } from '@/lib/api';
import { downloadFile } from '@/lib/download';

export function matchHistoryQueryOptions(matchId: string) {
  return queryOptions({
    queryKey: ['match-documents', matchId],
    queryFn: ({ signal }) =>
      apiJson(`/backend/matches/${encodeURIComponent(matchId)}/documents`, matchHistorySchema, { signal }),
  });
}

export function useMatchHistory(matchId: string) {
  return useQuery(matchHistoryQueryOptions(matchId));
}

/** The document's latest version as DOCX; refused with the reasons while it waits for its approval. */
export async function downloadDocument(entry: HistoryEntry): Promise<void> {
  const response = await apiFetch(`/backend/documents/${encodeURIComponent(entry.documentId)}/download`);
  downloadFile(await response.blob(), entry.fileName);
}
