/**
 * superdoc marks its text area `role="document"` with `aria-multiline` and an English label („Main
 * content area, start typing …"): ARIA allows `aria-multiline` and `aria-readonly` only on a text box,
 * so axe reports it as critical, and a screen reader announces English on a German page. Shown
 * read-only it is a document without those attributes; editable, a multi-line text box. Called before
 * an instance opens and again when it is ready (its text area is not always inside the element superdoc
 * was given, so it is looked for in the whole page); superdoc sets the attributes again when it lays
 * the document out anew, so one observer of those attributes — not of every node superdoc paints, which
 * would cost time while a document is laid out — repairs them.
 */
let repairing: MutationObserver | undefined;

const REPAIRED_ATTRIBUTES = [
  'role',
  'aria-multiline',
  'aria-readonly',
  'aria-label',
  'aria-description',
  'contenteditable',
];

export function keepTextAreasAccessible(): void {
  repair();
  if (repairing) return;
  repairing = new MutationObserver(repair);
  repairing.observe(document.body, { subtree: true, attributeFilter: REPAIRED_ATTRIBUTES });
}

function repair(): void {
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
}
