import type { QueryClient } from '@tanstack/react-query';
import { loadDocxRenderer } from '@/components/document-viewer/load-renderer';
import { preloadFirstViewRenderer } from '@/components/docx-first-view/load-first-view';
import { signingQueryOptions } from './signing-api';

/**
 * A signing link is often a customer's first visit, with nothing cached: the page's view is asked for at
 * once, beside the runtime configuration and the page's own code instead of after them, and as soon as it
 * says the document comes as DOCX, the renderer of its first view and superdoc start loading too (measured by
 * bench/browser). With nothing cached, superdoc's download and compiling outlast the first view, so it is
 * ready sooner without holding that up (unlike the editor tab's, whose browser has superdoc cached). The page
 * then finds the view in the query cache; a failed answer is asked for again when the page shows.
 */
export function preloadSigningPage(queryClient: QueryClient, token: string): void {
  if (!token) return;
  const options = signingQueryOptions(token);
  void queryClient.prefetchQuery(options).then(() => {
    const view = queryClient.getQueryData(options.queryKey);
    // A failure shows where the page opens the document with it.
    if (view && view.state === 'open' && !view.pdfAvailable) {
      preloadFirstViewRenderer();
      loadDocxRenderer().catch(() => {});
    }
  });
}
