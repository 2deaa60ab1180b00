import type { QueryClient } from '@tanstack/react-query';
import { viewedDocumentQueryOptions } from '@/components/document-viewer/api';
import { preloadFirstViewRenderer } from '@/components/docx-first-view/load-first-view';
import { loadReviewDocument, reviewDocumentKey, reviewQueryOptions, reviewViewOf } from './review-api';

/**
 * A review link is often the counterparty's first visit, on a phone, with nothing cached: the page's view
 * is asked for before the page renders, or taken from the answer its entry asked for while this code
 * loaded (`earlyView`, app/review), and as soon as it says the contract is open to them, the first view's
 * renderer and the contract itself. The page then finds them in the query cache; a failed answer is asked
 * for again when the page shows. No superdoc: it loads only on „Änderungen vorschlagen“. Settles once the
 * view is in the cache (or failed).
 */
export function preloadReviewPage(
  queryClient: QueryClient,
  token: string,
  earlyView?: Promise<Response>,
): Promise<void> {
  if (!token) return Promise.resolve();
  const options = reviewQueryOptions(token);
  const prefetch = earlyView ? { ...options, queryFn: () => reviewViewOf(earlyView) } : options;
  return queryClient.prefetchQuery(prefetch).then(() => {
    const view = queryClient.getQueryData(options.queryKey);
    if (!view) return;
    preloadFirstViewRenderer();
    // Behind the code step the contract answers only once the code is confirmed.
    if (view.verification.required && !view.verification.verified) return;
    void queryClient.prefetchQuery({
      ...viewedDocumentQueryOptions(reviewDocumentKey(token, view), false, (signal) =>
        loadReviewDocument(token, view.fileName, signal),
      ),
      // Kept until the page, whose code may still be loading, shows it (a reader would drop it at once).
      gcTime: 60_000,
    });
  });
}
