import { afterEach, describe, expect, it } from 'vitest';
import { keepTextAreasAccessible } from './superdoc-aria';

/** A text area as superdoc marks it (role document, aria-multiline, an English label). */
function superdocTextArea(editable: boolean): HTMLElement {
  const area = document.createElement('div');
  area.className = 'ProseMirror';
  area.setAttribute('contenteditable', String(editable));
  area.setAttribute('role', 'document');
  area.setAttribute('aria-multiline', 'true');
  area.setAttribute('aria-readonly', String(!editable));
  area.setAttribute('aria-label', 'Main content area, start typing to enter text.');
  area.setAttribute('aria-description', '');
  document.body.append(area);
  return area;
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
const attributesOf = (area: HTMLElement) =>
  Object.fromEntries(
    ['role', 'aria-multiline', 'aria-readonly', 'aria-label', 'aria-description'].map((name) => [
      name,
      area.getAttribute(name),
    ]),
  );

describe('keepTextAreasAccessible', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('makes a read-only text area a document with a German name, and an editable one a text box', async () => {
    const shown = superdocTextArea(false);
    keepTextAreasAccessible();
    expect(attributesOf(shown)).toEqual({
      role: 'document',
      'aria-multiline': null,
      'aria-readonly': null,
      'aria-label': 'Dokumenttext',
      'aria-description': null,
    });
    // Another instance ready later, as when the editor opens another version.
    const edited = superdocTextArea(true);
    keepTextAreasAccessible();
    expect(attributesOf(edited)).toEqual({
      role: 'textbox',
      'aria-multiline': 'true',
      'aria-readonly': 'false',
      'aria-label': 'Dokumenttext bearbeiten',
      'aria-description': null,
    });
  });

  it('repairs the attributes again when superdoc sets them anew', async () => {
    const shown = superdocTextArea(false);
    keepTextAreasAccessible();
    shown.setAttribute('aria-multiline', 'true');
    shown.setAttribute('aria-label', 'Main content area, start typing to enter text.');
    await settled();
    expect(shown.getAttribute('aria-multiline')).toBeNull();
    expect(shown.getAttribute('aria-label')).toBe('Dokumenttext');
  });
});
