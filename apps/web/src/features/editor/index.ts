/** The built-in DOCX editor: the page of a stored document with its versions. */
export { EditorPage } from './editor-page';
