import type { QueryClient } from '@tanstack/react-query';
import { viewedDocumentQueryOptions } from '@/components/document-viewer/api';
import { preloadFirstViewRenderer } from '@/components/docx-first-view/load-first-view';
import { loadSigningDocument, signingDocumentKey, signingQueryOptions, signingViewOf } from './signing-api';

/**
 * A signing link is often a customer's first visit, on a phone, with nothing cached: the page's view is
 * asked for before the page renders, or taken from the answer its entry asked for while this code loaded
 * (`earlyView`, app/signing), and as soon as it says the document is open for signing, the
 * renderer of the document and the document itself. The page then finds them in the query cache; a failed
 * answer is asked for again when the page shows. No superdoc: the page shows the document as text
 * (components/document-viewer/document-reader.tsx). Settles once the view is in the cache (or failed).
 */
export function preloadSigningPage(
  queryClient: QueryClient,
  token: string,
  earlyView?: Promise<Response>,
): Promise<void> {
  if (!token) return Promise.resolve();
  const options = signingQueryOptions(token);
  const prefetch = earlyView ? { ...options, queryFn: () => signingViewOf(earlyView) } : options;
  return queryClient.prefetchQuery(prefetch).then(() => {
    const view = queryClient.getQueryData(options.queryKey);
    // A failure shows where the page opens the document; a used link shows no document.
    if (view?.state !== 'open') return;
    preloadFirstViewRenderer();
    // Behind the code step the document answers only once the code is confirmed.
    if (view.verification.required && !view.verification.verified) return;
    void queryClient.prefetchQuery({
      ...viewedDocumentQueryOptions(signingDocumentKey(view), false, (signal) =>
        loadSigningDocument(token, signal),
      ),
      // Kept until the page, whose code may still be loading, shows it (a reader would drop it at once).
      gcTime: 60_000,
    });
  });
}
