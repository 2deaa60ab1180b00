/**
 * Performance entries a benchmark reads (DESIGN §12): the sender view and the signing page mark when
 * their document shows, relative to the page's navigation (`performance.timeOrigin`).
 */
export const VIEWER_TIMING = {
  shown: 'viewer:document-shown',
} as const;

/** Called when the viewer shows a document: the PDF frame loaded, or the DOCX laid out. */
export function markViewerShown(): void {
  performance.mark(VIEWER_TIMING.shown);
}
