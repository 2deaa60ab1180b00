import { renderAsync } from 'docx-preview';
import { withFallbackFont, withFallbackFonts } from './font-fallback';
import './first-view.css';

/** The performance measure of rendering the first view, read by the browser benchmark (bench/browser). */
export const FIRST_VIEW_RENDERING = 'first-view:rendering';

/**
 * Renders a DOCX as plain HTML pages with docx-preview (docxjs): some 50 kB against superdoc's 5.6 MB,
 * and a contract in tens of milliseconds against superdoc's half second, so that the document can be
 * read while superdoc still loads. Kept in its own module because the first view imports it on demand.
 *
 * Rejects if the file cannot be read as a DOCX.
 */
export async function renderFirstView(container: HTMLElement, docx: Blob): Promise<void> {
  const started = performance.now();
  await renderAsync(docx, container, undefined, {
    // Its own class prefix (first-view.css styles the pages by it), so that its styles cannot reach
    // superdoc's, which share the frame.
    className: 'docx-first-view',
    // Images and embedded fonts as data: URLs; the CSP allows fonts from data:, not from blob:.
    useBase64URL: true,
    // Embedded HTML parts would be rendered as they come: nothing of a document may run or load here.
    renderAltChunks: false,
    renderComments: false,
    renderChanges: false,
  });
  for (const sheet of container.querySelectorAll('style')) {
    sheet.textContent = withFallbackFonts(sheet.textContent ?? '');
  }
  for (const element of container.querySelectorAll<HTMLElement>('[style*="font-family"]')) {
    element.style.fontFamily = withFallbackFont(element.style.fontFamily);
  }
  performance.measure(FIRST_VIEW_RENDERING, { start: started });
}
