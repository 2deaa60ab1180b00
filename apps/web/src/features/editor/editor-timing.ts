/**
 * Performance entries the browser benchmark reads (bench/browser). The form's tab marks `generation:submit`;
 * this tab, opened for the generated document, marks when the document shows (in the first view or in
 * superdoc, whichever is first) and when superdoc is ready to edit it. Marks of two tabs are compared on one
 * clock as `performance.timeOrigin + startTime`.
 */
export const EDITOR_TIMING = {
  shown: 'editor:document-shown',
  editable: 'editor:document-editable',
} as const;

/** Called once per opened document; the first mark of a tab is the one opened for it. */
export function markDocumentShown(): void {
  performance.mark(EDITOR_TIMING.shown);
}

/** Called every time superdoc is ready to edit a document. */
export function markDocumentEditable(): void {
  performance.mark(EDITOR_TIMING.editable);
}
