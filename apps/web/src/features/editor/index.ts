/** The built-in DOCX editor: the page of a stored document with its versions. */

export { preloadStoredDocument } from './document-preload';
export { type DocumentPanel, type DocumentPanelContext, EditorPage } from './editor-page';
