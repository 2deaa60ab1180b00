import type * as DocxEditorModule from './docx-editor';
import { markEditorCodeLoaded, markEditorCodeRequested } from './editor-timing';

let loading: Promise<typeof DocxEditorModule> | undefined;

/**
 * The editor's code with superdoc (5.6 MB, about a second to fetch and compile), loaded once per tab.
 * The page starts it as soon as it opens, so that it loads while the page checks the sign-in and fetches
 * the document and while the first view renders it, not only once the file is there.
 */
export function loadDocxEditor(): Promise<typeof DocxEditorModule> {
  if (loading) return loading;
  markEditorCodeRequested();
  loading = import('./docx-editor').then(
    (module) => {
      markEditorCodeLoaded();
      return module;
    },
    (error: unknown) => {
      // A failed chunk (a network hiccup) is fetched anew by the next opening.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Starts loading the editor's code; a failure shows only when the editor opens the document. */
export function preloadDocxEditor(): void {
  loadDocxEditor().catch(() => {});
}
