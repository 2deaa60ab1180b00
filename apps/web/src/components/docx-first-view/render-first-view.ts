import { type Options, parseAsync, renderDocument } from 'docx-preview';
import { DocxReadInSteps } from './docx-zip';
import { withFallbackFont, withFallbackFonts } from './font-fallback';
import { nextTask } from './next-task';
import './first-view.css';

/** The performance measure of rendering the first view, read by the browser benchmark (bench/browser). */
export const FIRST_VIEW_RENDERING = 'first-view:rendering';

const OPTIONS: Partial<Options> = {
  // Its own class prefix (first-view.css styles the pages by it), so that its styles cannot reach
  // superdoc's, which share the frame.
  className: 'docx-first-view',
  // Images and embedded fonts as data: URLs; the CSP allows fonts from data:, not from blob:.
  useBase64URL: true,
  // Embedded HTML parts would be rendered as they come: nothing of a document may run or load here.
  renderAltChunks: false,
  renderComments: false,
  renderChanges: false,
};

/**
 * Renders a DOCX as plain HTML pages with docx-preview (docxjs): some 50 kB against superdoc's 5.6 MB,
 * and a contract in tens of milliseconds against superdoc's half second, so that the document can be
 * read while superdoc still loads. Kept in its own module because the first view imports it on demand.
 *
 * Reading the file, making the pages and putting them into the page each take a task of their own: at
 * once, on a phone, they would hold up the page, and a tap on it, for a good part of a second. With
 * `inSteps`, each part of the file is read in a task of its own as well (DocxReadInSteps says when).
 *
 * Rejects if the file cannot be read as a DOCX.
 */
export async function renderFirstView(
  container: HTMLElement,
  docx: Blob,
  { inSteps }: { inSteps: boolean },
): Promise<void> {
  const started = performance.now();
  const document = await parseAsync(inSteps ? new DocxReadInSteps(docx) : docx, OPTIONS);
  await nextTask();
  const pages = window.document.createDocumentFragment();
  pages.append(...(await renderDocument(document, OPTIONS)));
  for (const sheet of pages.querySelectorAll('style')) {
    sheet.textContent = withFallbackFonts(sheet.textContent ?? '');
  }
  for (const element of pages.querySelectorAll<HTMLElement>('[style*="font-family"]')) {
    element.style.fontFamily = withFallbackFont(element.style.fontFamily);
  }
  await nextTask();
  container.replaceChildren(pages);
  performance.measure(FIRST_VIEW_RENDERING, { start: started });
}
