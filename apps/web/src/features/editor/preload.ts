/**
 * Starts loading superdoc (5.6 MB, some 200 ms to compile) for the editor, so that it is ready when the
 * sign-in check and the document's data and file have arrived, instead of after. A module of its own:
 * the tab's early start (app/page-preload.ts) and the editor route call it from the initial chunk,
 * which must not take the editor page in with it.
 */
export function preloadDocxEditor(): void {
  void import('./docx-editor');
}
