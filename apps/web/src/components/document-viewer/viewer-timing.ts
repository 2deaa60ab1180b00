/**
 * Performance entries the browser benchmark reads (bench/browser): the sender view and the signing page mark
 * when their document shows and, for a DOCX, when superdoc has replaced the first view with its exact
 * rendering, relative to the page's navigation (`performance.timeOrigin`).
 */
export const VIEWER_TIMING = {
  shown: 'viewer:document-shown',
  exact: 'viewer:document-exact',
} as const;

/** Called when the viewer shows a document: the PDF frame loaded, or the DOCX's first view. */
export function markViewerShown(): void {
  performance.mark(VIEWER_TIMING.shown);
}

/** Called when superdoc shows the DOCX. */
export function markViewerExact(): void {
  performance.mark(VIEWER_TIMING.exact);
}
