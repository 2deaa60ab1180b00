/**
 * Performance entries the browser benchmark reads (bench/browser). The form's tab marks `generation:submit`;
 * this tab, opened for the generated document, marks when the document shows (in the first view or in
 * superdoc, whichever is first), when the editor's code with superdoc has loaded, and when superdoc is ready
 * to edit it. Marks of two tabs are compared on one clock as `performance.timeOrigin + startTime`.
 */
export const EDITOR_TIMING = {
  shown: 'editor:document-shown',
  editable: 'editor:document-editable',
  codeRequested: 'editor:code-requested',
  codeLoaded: 'editor:code-loaded',
} as const;

/** Called once per opened document; the first mark of a tab is the one opened for it. */
export function markDocumentShown(): void {
  performance.mark(EDITOR_TIMING.shown);
}

/** Called every time superdoc is ready to edit a document. */
export function markDocumentEditable(): void {
  performance.mark(EDITOR_TIMING.editable);
}

/** Called once per tab, when the editor's code with superdoc is asked for. */
export function markEditorCodeRequested(): void {
  performance.mark(EDITOR_TIMING.codeRequested);
}

/** Called once per tab, when the editor's code with superdoc has loaded (fetched, compiled, evaluated). */
export function markEditorCodeLoaded(): void {
  performance.mark(EDITOR_TIMING.codeLoaded);
}
