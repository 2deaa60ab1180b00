import type { SuperDoc } from 'superdoc';
import { texts } from '@/texts';

/** What a split button's second half and a button's live state are called, as superdoc writes them. */
const OPTIONS_SUFFIX = ' options';
const STATES = { selected: ' selected', unset: ' unset' } as const;

/**
 * superdoc names its toolbar controls for screen readers in English (`aria-label="Bold"`, a live region
 * saying "Bold selected") and has no setting for it; only its tooltips take our German texts. This keeps
 * the names German: each item's English name is replaced by its German tooltip wherever superdoc writes
 * it, also after superdoc rebuilds the toolbar (it does on resize). Returns what stops it.
 */
export function keepToolbarNamesGerman(superdoc: SuperDoc, toolbarElement: HTMLElement): () => void {
  function germanNames(): Map<string, string> {
    const names = new Map<string, string>(Object.entries(texts.editor.toolbarNames.untitled));
    const toolbar = superdoc.toolbar;
    for (const item of [...(toolbar?.toolbarItems ?? []), ...(toolbar?.overflowItems ?? [])]) {
      const english = item.attributes.value.ariaLabel;
      const german = item.tooltip.value;
      if (typeof english === 'string' && german) names.set(english, german);
    }
    return names;
  }

  function translate(label: string, names: Map<string, string>): string | undefined {
    const exact = names.get(label);
    if (exact !== undefined) return exact;
    if (label.endsWith(OPTIONS_SUFFIX)) {
      const german = names.get(label.slice(0, -OPTIONS_SUFFIX.length));
      if (german !== undefined) return texts.editor.toolbarNames.options(german);
    }
    for (const [state, suffix] of Object.entries(STATES) as [keyof typeof STATES, string][]) {
      if (!label.endsWith(suffix)) continue;
      const german = names.get(label.slice(0, -suffix.length));
      if (german !== undefined) return texts.editor.toolbarNames[state](german);
    }
    return undefined;
  }

  function translateAll() {
    const names = germanNames();
    for (const element of toolbarElement.querySelectorAll<HTMLElement>('[aria-label]')) {
      const label = element.getAttribute('aria-label') ?? '';
      const german = translate(label, names);
      if (german !== undefined && german !== label) element.setAttribute('aria-label', german);
    }
    for (const region of toolbarElement.querySelectorAll<HTMLElement>('.sd-visually-hidden[aria-live]')) {
      const text = region.textContent ?? '';
      const german = translate(text, names);
      if (german !== undefined && german !== text) region.textContent = german;
    }
  }

  translateAll();
  // Our own changes come back as mutations too: a name is only written when it changes (some are the
  // same in both languages, `Zoom`), or the observer would wake itself forever.
  const observer = new MutationObserver(translateAll);
  observer.observe(toolbarElement, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['aria-label'],
  });
  return () => observer.disconnect();
}
