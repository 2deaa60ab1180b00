import { useEffect } from 'react';
import type { GenerationTarget } from '@/lib/document-generation';
import { useRuntimeConfig } from '@/lib/runtime-config';

/**
 * Loads superdoc (5.6 MB, about a second to fetch and compile) while the user fills in a form whose
 * document the built-in editor opens in a new tab: that tab then finds it in the browser's cache instead
 * of fetching it after the document. Only once the browser is idle, so that it never delays the form;
 * a browser without `requestIdleCallback` (Safari) loads it in the editor tab alone, as before.
 */
export function usePreloadedEditor(target: GenerationTarget): void {
  const { editor } = useRuntimeConfig();
  // An envelope goes to the sender view, not to the editor.
  const opensEditor = editor === 'builtin' && target !== 'signature';
  useEffect(() => {
    if (!opensEditor || typeof requestIdleCallback !== 'function') return;
    const idle = requestIdleCallback(() => {
      // The editor tab loads it again and reports a failure there.
      import('@/lib/superdoc').catch(() => {});
    });
    return () => cancelIdleCallback(idle);
  }, [opensEditor]);
}
