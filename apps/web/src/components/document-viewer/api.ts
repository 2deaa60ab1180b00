import { queryOptions } from '@tanstack/react-query';

/**
 * The bytes a viewer shows, under the caller's name for the document. The bytes of a document version
 * never change, and a page that polls its envelope must not load them again; they are dropped as soon
 * as no viewer shows them.
 */
export function viewedDocumentQueryOptions(
  documentKey: string,
  pdf: boolean,
  load: (signal: AbortSignal) => Promise<Blob>,
) {
  return queryOptions({
    queryKey: ['document-viewer', documentKey, pdf],
    queryFn: ({ signal }) => load(signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}
