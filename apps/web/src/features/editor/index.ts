/** The built-in DOCX editor: the page of a stored document with its versions. */

export { preloadStoredDocument } from './document-preload';
export { EditorPage } from './editor-page';
