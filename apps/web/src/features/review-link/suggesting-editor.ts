import { openSuperdoc } from '@/lib/superdoc';
import { exportDocx } from '@/lib/superdoc-export';

/**
 * superdoc for the counterparty's suggestions. Its own module, imported only when the reviewer asks to
 * suggest changes (load-suggesting-editor.ts): superdoc is several megabytes that most reviewers, who only
 * read and comment, never need on their phone.
 */
export interface SuggestingEditor {
  /** The document with the reviewer's changes as tracked changes, as DOCX. */
  exportDocx(): Promise<Blob>;
  /** The text the reviewer has selected in the document; empty when nothing is. */
  selectedText(): string;
  destroy(): void;
}

export interface SuggestingEditorOptions {
  /** The author of every change: superdoc records the name (and the time) with each tracked change. */
  user: { name: string; email: string };
  /** Called on every change of the document's content. */
  onChange: () => void;
}

/** As the staff editor's (features/editor/docx-editor.ts): a page or two around the one in view. */
const LAYOUT = { virtualization: { window: 2, overscan: 1 } };

/**
 * Opens the DOCX in `container` in suggesting mode: whatever the reviewer types or deletes becomes a
 * tracked change under their name, which legal accepts or rejects one by one. No toolbar: a suggestion
 * is text, and superdoc's toolbar would offer formatting and accepting changes, which are not theirs to
 * do. The page fits the frame's width, so that a phone scrolls it only downwards.
 */
export async function openSuggestingEditor(
  container: HTMLElement,
  docx: Blob,
  { user, onChange }: SuggestingEditorOptions,
): Promise<SuggestingEditor> {
  const superdoc = await openSuperdoc(container, docx, {
    documentMode: 'suggesting',
    role: 'suggester',
    user: { name: user.name, email: user.email },
    layoutEngineOptions: LAYOUT,
    zoom: { mode: 'fit-width' },
    // No comment cards beside the pages: the page has its own comments, and superdoc's cards (one per
    // tracked change) would take a sidebar of 320 px that a phone does not have, with a dialog unnamed for
    // screen readers. The changes stay marked in the text.
    modules: { comments: false },
  });
  // Only from now on: while it opens the file, superdoc reports its own import as an update.
  superdoc.on('editor-update', onChange);
  return {
    exportDocx: () => exportDocx(superdoc),
    selectedText() {
      // The editor's own selection, which stays when the focus moves to the page's button: the browser's
      // selection is in superdoc's hidden input, not in the pages it paints.
      const state = superdoc.activeEditor?.state;
      if (!state || state.selection.empty) return '';
      return state.doc.textBetween(state.selection.from, state.selection.to, '\n', ' ').trim();
    },
    destroy() {
      superdoc.off('editor-update', onChange);
      superdoc.destroy();
    },
  };
}
