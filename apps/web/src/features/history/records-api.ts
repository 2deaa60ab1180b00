import { queryOptions } from '@tanstack/react-query';
import { deletionRecordSchema, documentReadSchema } from '@vertragsgenerator/domain';
import { apiJson } from '@/lib/api';

export const documentReadsQueryOptions = (documentId: string) =>
  queryOptions({
    queryKey: ['document-reads', documentId],
    queryFn: ({ signal }) =>
      apiJson(`/backend/documents/${encodeURIComponent(documentId)}/reads`, documentReadSchema.array(), {
        signal,
      }),
  });

export const matchDeletionsQueryOptions = (matchId: string) =>
  queryOptions({
    queryKey: ['match-deletions', matchId],
    queryFn: ({ signal }) =>
      apiJson(`/backend/matches/${encodeURIComponent(matchId)}/deletions`, deletionRecordSchema.array(), {
        signal,
      }),
  });
