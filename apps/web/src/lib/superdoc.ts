import 'superdoc/style.css';
import { type Config, SuperDoc } from 'superdoc';
import { keepTextAreasAccessible } from './superdoc-aria';

/**
 * superdoc neither finishes nor reports an error for some broken files; past this the caller gives up
 * and offers the download. A contract normally opens within a few seconds.
 */
const OPEN_TIMEOUT_MS = 30_000;

/**
 * The performance measure of superdoc opening a document: from handing it the file until it shows it
 * (its import of the DOCX, the editor state, the page layout). The browser benchmark reads it: it is
 * the part of the wait for a document that no order of loading shortens.
 */
export const SUPERDOC_OPENING = 'superdoc:opening';

/** Every DOCX is a ZIP archive, which starts with the bytes `PK\x03\x04`. */
async function isZip(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

/**
 * What the viewer and the editors choose themselves; the rest is the same for all. `user` names the author
 * of tracked changes (the review page's suggestions), `zoom` fits the page to a phone's width there.
 */
export type SuperdocOptions = Pick<
  Config,
  'documentMode' | 'role' | 'toolbar' | 'modules' | 'layoutEngineOptions' | 'user' | 'zoom'
>;

/**
 * Opens a DOCX with superdoc, the one engine that shows, signs and edits documents in the SPA, so that
 * a document looks the same everywhere. Only the lazily loaded viewer and editor modules import this:
 * superdoc is by far the largest dependency of the SPA, and /login and /start must stay small.
 *
 * Resolves with the instance once superdoc is ready; rejects if superdoc cannot open the document.
 */
export async function openSuperdoc(
  container: HTMLElement,
  document: Blob,
  options: SuperdocOptions,
): Promise<SuperDoc> {
  // superdoc would wait forever on a file that is no DOCX at all (an error page, a PDF).
  if (!(await isZip(document))) throw new Error('The document is not a DOCX file');
  return new Promise((resolve, reject) => {
    // An object, so that TypeScript does not narrow the state the callbacks change to its initial value.
    const state: { outcome: 'pending' | 'ready' | 'failed' } = { outcome: 'pending' };
    let instance: SuperDoc | undefined;
    const fail = (error: unknown) => {
      if (state.outcome !== 'pending') return;
      state.outcome = 'failed';
      clearTimeout(timeout);
      // Not from within superdoc's own callback: destroying the instance there breaks its teardown.
      setTimeout(() => instance?.destroy());
      reject(error);
    };
    const timeout = setTimeout(() => fail(new Error('superdoc did not finish opening')), OPEN_TIMEOUT_MS);
    const openingStarted = performance.now();
    // From the start: superdoc builds its text area while the first view still stands for it.
    keepTextAreasAccessible();
    instance = new SuperDoc({
      ...options,
      selector: container,
      document,
      // The documents are contracts: nothing about them goes to superdoc's telemetry endpoint (the
      // CSP would block the call anyway and report a violation on every open).
      telemetry: { enabled: false },
      rulers: false,
      // superdoc's own context menu is English and offers features we do not use; the browser's
      // menu (copy, paste) stays.
      disableContextMenu: true,
      onReady: ({ superdoc }) => {
        if (state.outcome !== 'pending') return;
        state.outcome = 'ready';
        clearTimeout(timeout);
        performance.measure(SUPERDOC_OPENING, { start: openingStarted });
        keepTextAreasAccessible();
        resolve(superdoc);
      },
      onContentError: ({ error }) => fail(error),
      onException: ({ error }) => fail(error),
    });
  });
}
