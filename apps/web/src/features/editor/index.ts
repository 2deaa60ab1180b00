/** The built-in DOCX editor: the page of a stored document with its versions. */
export { EditorPage } from './editor-page';

/**
 * Starts loading superdoc (5.6 MB, some 200 ms to compile) as soon as the route is chosen, so that it
 * is ready when the sign-in check and the document's data and file have arrived, instead of after.
 */
export function preloadDocxEditor(): void {
  void import('./docx-editor');
}
