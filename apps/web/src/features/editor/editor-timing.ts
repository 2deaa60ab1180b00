/**
 * Performance entries a benchmark reads (DESIGN §12). The form's tab marks `generation:submit`; this
 * tab, opened for the generated document, marks when the document shows. Marks of two tabs are
 * compared on one clock as `performance.timeOrigin + startTime`.
 */
export const EDITOR_TIMING = {
  shown: 'editor:document-shown',
} as const;

/** Called every time superdoc shows a document; the first mark of a tab is the one opened for it. */
export function markDocumentShown(): void {
  performance.mark(EDITOR_TIMING.shown);
}
