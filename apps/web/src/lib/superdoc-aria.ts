/**
 * superdoc marks its text area `role="document"` with `aria-multiline` and an English label („Main
 * content area, start typing …"): ARIA allows `aria-multiline` and `aria-readonly` only on a text box,
 * so axe reports it as critical, and a screen reader announces English on a German page. Shown
 * read-only it is a document without those attributes; editable, a multi-line text box. The text area
 * is not always inside the element superdoc was given, and superdoc sets its attributes again when it
 * lays the document out anew: one observer of the page repairs every text area whenever that happens.
 */
let repairing: MutationObserver | undefined;

export function keepTextAreasAccessible(): void {
  if (repairing) return;
  const repair = () => {
    for (const area of document.querySelectorAll<HTMLElement>('.ProseMirror')) {
      const editable = area.getAttribute('contenteditable') === 'true';
      const wanted: Record<string, string | null> = editable
        ? { role: 'textbox', 'aria-multiline': 'true', 'aria-label': 'Dokumenttext bearbeiten' }
        : { role: 'document', 'aria-multiline': null, 'aria-readonly': null, 'aria-label': 'Dokumenttext' };
      for (const [name, value] of Object.entries(wanted)) {
        if (value === null) {
          if (area.hasAttribute(name)) area.removeAttribute(name);
        } else if (area.getAttribute(name) !== value) area.setAttribute(name, value);
      }
      if (area.getAttribute('aria-description') === '') area.removeAttribute('aria-description');
    }
  };
  repair();
  repairing = new MutationObserver(repair);
  repairing.observe(document.body, {
    subtree: true,
    childList: true,
    attributeFilter: [
      'role',
      'aria-multiline',
      'aria-readonly',
      'aria-label',
      'aria-description',
      'contenteditable',
    ],
  });
}
