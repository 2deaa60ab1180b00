/**
 * The DOCX renderer, and superdoc with it (5.6 MB), as a chunk of its own: loaded only where a DOCX is
 * shown, so that /login and /start stay small. Its own module, so that the signing page's early start
 * (features/signature/signing-preload.ts) can begin loading it without bringing the viewer along.
 */
export function loadDocxRenderer() {
  return import('./docx-renderer');
}
