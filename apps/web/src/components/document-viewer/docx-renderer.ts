import { openSuperdoc } from '@/lib/superdoc';

/**
 * Renders a DOCX read-only with superdoc. Kept in its own module because the DocumentViewer imports it
 * on demand, and superdoc with it.
 *
 * Resolves with a function that removes the rendering once superdoc is ready; rejects if superdoc
 * cannot open the document.
 */
export async function renderDocx(container: HTMLElement, document: Blob): Promise<() => void> {
  const instance = await openSuperdoc(container, document, { documentMode: 'viewing', role: 'viewer' });
  return () => instance.destroy();
}
