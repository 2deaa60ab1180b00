import type * as SuggestingEditorModule from './suggesting-editor';

let loading: Promise<typeof SuggestingEditorModule> | undefined;

/**
 * superdoc's code, loaded once per tab and only on „Änderungen vorschlagen“: the page's first load (a
 * phone, often a customer's first visit) stays React, Mantine and the light first view of the DOCX.
 */
export function loadSuggestingEditor(): Promise<typeof SuggestingEditorModule> {
  loading ??= import('./suggesting-editor').catch((error: unknown) => {
    // A failed chunk (a network hiccup) is fetched anew by the next try.
    loading = undefined;
    throw error;
  });
  return loading;
}
