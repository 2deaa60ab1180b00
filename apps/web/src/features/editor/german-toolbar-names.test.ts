import type { SuperDoc } from 'superdoc';
import { afterEach, describe, expect, it } from 'vitest';
import { keepToolbarNamesGerman } from './german-toolbar-names';

/** The part of superdoc's toolbar the function reads: each item's English name and German tooltip. */
function fakeSuperdoc(items: Array<[english: string, german: string]>): SuperDoc {
  const toolbarItems = items.map(([english, german]) => ({
    attributes: { value: { ariaLabel: english } },
    tooltip: { value: german },
  }));
  return { toolbar: { toolbarItems, overflowItems: [] } } as unknown as SuperDoc;
}

function toolbarWith(html: string): HTMLElement {
  const element = document.createElement('div');
  element.innerHTML = html;
  document.body.append(element);
  return element;
}

/** MutationObserver callbacks run as a microtask after the change. */
const mutationsHandled = () => new Promise((resolve) => setTimeout(resolve));

afterEach(() => {
  document.body.innerHTML = '';
});

describe('keepToolbarNamesGerman', () => {
  it('gives buttons, split-button halves and live states the German names of the tooltips', () => {
    const toolbar = toolbarWith(`
      <div role="button" aria-label="Bold"><div class="sd-visually-hidden" aria-live="polite">Bold unset</div></div>
      <div role="button" aria-label="Color options"></div>
      <div role="button" aria-label="Something superdoc added"></div>`);
    keepToolbarNamesGerman(
      fakeSuperdoc([
        ['Bold', 'Fett'],
        ['Color', 'Schriftfarbe'],
      ]),
      toolbar,
    );
    const labels = [...toolbar.querySelectorAll('[aria-label]')].map((element) =>
      element.getAttribute('aria-label'),
    );
    expect(labels).toEqual(['Fett', 'Schriftfarbe: weitere Optionen', 'Something superdoc added']);
    expect(toolbar.querySelector('[aria-live]')?.textContent).toBe('Fett: aus');
  });

  it('leaves a name that is the same in both languages alone, so that it does not wake itself', async () => {
    const toolbar = toolbarWith('<div role="button" aria-label="Zoom"></div>');
    let mutations = 0;
    new MutationObserver((records) => {
      mutations += records.length;
    }).observe(toolbar, { subtree: true, attributes: true });
    keepToolbarNamesGerman(fakeSuperdoc([['Zoom', 'Zoom']]), toolbar);
    await mutationsHandled();
    expect(mutations).toBe(0);
  });

  it('keeps them German when superdoc changes the state or builds the toolbar anew, until stopped', async () => {
    const toolbar = toolbarWith(
      '<div role="button" aria-label="Italic"><div class="sd-visually-hidden" aria-live="polite">Italic unset</div></div>',
    );
    const stop = keepToolbarNamesGerman(fakeSuperdoc([['Italic', 'Kursiv']]), toolbar);
    const state = toolbar.querySelector('[aria-live]') as HTMLElement;

    state.textContent = 'Italic selected';
    await mutationsHandled();
    expect(state.textContent).toBe('Kursiv: an');

    toolbar.innerHTML = '<div role="button" aria-label="Italic"></div>';
    await mutationsHandled();
    expect(toolbar.querySelector('[role="button"]')?.getAttribute('aria-label')).toBe('Kursiv');

    stop();
    toolbar.innerHTML = '<div role="button" aria-label="Italic"></div>';
    await mutationsHandled();
    expect(toolbar.querySelector('[role="button"]')?.getAttribute('aria-label')).toBe('Italic');
  });
});
