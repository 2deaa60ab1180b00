/** The media type of every document the app generates, stores, edits and has signed: a Word document. */
export const DOCX_MIME_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
