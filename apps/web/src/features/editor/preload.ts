/**
 * Starts loading superdoc (5.6 MB, some 200 ms to compile) for the editor, so that it is ready when the
 * sign-in check and the document's data and file have arrived, instead of after. A module of its own:
 * main.tsx calls it before the shell, and it must not bring the editor page into the initial chunk.
 */
export function preloadDocxEditor(): void {
  void import('./docx-editor');
}
