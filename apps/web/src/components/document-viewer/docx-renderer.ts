import 'superdoc/style.css';
import { SuperDoc } from 'superdoc';

/**
 * superdoc neither finishes nor reports an error for some broken files; past this the viewer gives up
 * and offers the download. A contract normally renders within a few seconds.
 */
const RENDER_TIMEOUT_MS = 30_000;

/** Every DOCX is a ZIP archive, which starts with the bytes `PK\x03\x04`. */
async function isZip(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

/**
 * Renders a DOCX read-only with superdoc, the engine the online editor builds on, so that a document
 * looks the same when it is viewed, signed and edited. Kept in its own module because the DocumentViewer
 * imports it on demand: superdoc is by far the largest dependency of the SPA.
 *
 * Resolves with a function that removes the rendering once superdoc is ready; rejects if superdoc
 * cannot open the document.
 */
export async function renderDocx(container: HTMLElement, document: Blob): Promise<() => void> {
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
    const timeout = setTimeout(() => fail(new Error('superdoc did not finish rendering')), RENDER_TIMEOUT_MS);
    instance = new SuperDoc({
      selector: container,
      document,
      documentMode: 'viewing',
      role: 'viewer',
      // The documents are contracts: nothing about them goes to superdoc's telemetry endpoint (the
      // CSP would block the call anyway and report a violation on every open).
      telemetry: { enabled: false },
      rulers: false,
      disableContextMenu: true,
      onReady: () => {
        if (state.outcome !== 'pending') return;
        state.outcome = 'ready';
        clearTimeout(timeout);
        resolve(() => instance?.destroy());
      },
      onContentError: ({ error }) => fail(error),
      onException: ({ error }) => fail(error),
    });
  });
}
