import type { QueryClient } from '@tanstack/react-query';
import { documentFileQueryOptions, storedDocumentQueryOptions } from './api';
import { LATEST } from './use-editor-session';

/**
 * The editor tab's two requests, asked for beside the route guard's session check instead of after it:
 * the page would ask for the document only once it renders, and for its file only once the document has
 * answered — two round trips behind the check in a tab that shows nothing until then. The server checks
 * the sign-in of each as always; a refused one is dropped and the page asks again.
 */
export function preloadStoredDocument(queryClient: QueryClient, documentId: string): void {
  void queryClient.prefetchQuery(storedDocumentQueryOptions(documentId));
  void queryClient.prefetchQuery({
    // The key the page's first opening uses (the newest version, opening 0).
    ...documentFileQueryOptions(documentId, LATEST.version, 0),
    // Kept until the page, whose code may still be loading, takes it (the editor drops a file at once).
    gcTime: 60_000,
  });
}
