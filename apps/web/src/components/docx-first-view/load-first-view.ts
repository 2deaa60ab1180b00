/**
 * The first view's renderer (docx-preview and JSZip) as a chunk of its own, loaded only where a DOCX is
 * shown. Its own module, so that a page's early start can begin loading it without the component.
 */
export function loadFirstViewRenderer() {
  return import('./render-first-view');
}

/** Starts loading the renderer ahead of the file; a failure shows where the first view renders with it. */
export function preloadFirstViewRenderer(): void {
  loadFirstViewRenderer().catch(() => {});
}
