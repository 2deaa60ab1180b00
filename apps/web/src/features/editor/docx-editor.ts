import { openSuperdoc } from '@/lib/superdoc';
import { exportDocx } from '@/lib/superdoc-export';
import { texts } from '@/texts';
import { keepToolbarNamesGerman } from './german-toolbar-names';

/**
 * The built-in editor on superdoc. Its own module, loaded on demand by the editor page only: the build
 * puts it (and superdoc with it) into chunks that /login and /start never load.
 */
export interface DocxEditor {
  /** The document as it is now, as DOCX. */
  exportDocx(): Promise<Blob>;
  destroy(): void;
}

export interface DocxEditorOptions {
  /** Shows the document without letting it change (an older version). */
  readOnly: boolean;
  /** The ID of the element superdoc renders its formatting toolbar into. */
  toolbarId: string;
  /** Called on every change of the document's content. */
  onChange: () => void;
}

/**
 * Toolbar buttons we leave out: the AI needs superdoc's paid service, the modes switch to suggesting
 * and viewing (the page decides that), and tracked changes are not part of our documents' workflow.
 */
const EXCLUDED_TOOLBAR_ITEMS = [
  'ai',
  'documentMode',
  'acceptTrackedChangeBySelection',
  'rejectTrackedChangeOnSelection',
];

/**
 * The pages superdoc draws at first: the frame shows about one page, so two around it and one beyond
 * suffice, and superdoc draws the rest as they are scrolled to. Its default of five and one made its
 * opening of a contract about a sixth slower (bench/browser, superdoc:opening).
 */
const LAYOUT = { virtualization: { window: 2, overscan: 1 } };

/**
 * Opens the DOCX in `container`, for editing with superdoc's toolbar in the element `toolbarId`, or
 * read-only. Resolves once the document shows; rejects if superdoc cannot open it.
 */
export async function openDocxEditor(
  container: HTMLElement,
  docx: Blob,
  { readOnly, toolbarId, onChange }: DocxEditorOptions,
): Promise<DocxEditor> {
  const superdoc = await openSuperdoc(
    container,
    docx,
    readOnly
      ? { documentMode: 'viewing', role: 'viewer', layoutEngineOptions: LAYOUT }
      : {
          documentMode: 'editing',
          role: 'editor',
          toolbar: toolbarId,
          modules: { toolbar: { texts: texts.editor.toolbar, excludeItems: EXCLUDED_TOOLBAR_ITEMS } },
          layoutEngineOptions: LAYOUT,
        },
  );
  // Only from now on: while it opens the file, superdoc reports its own import as an update.
  superdoc.on('editor-update', onChange);
  const toolbarElement = readOnly ? null : document.getElementById(toolbarId);
  const stopGermanNames = toolbarElement ? keepToolbarNamesGerman(superdoc, toolbarElement) : () => {};
  return {
    exportDocx: () => exportDocx(superdoc),
    destroy() {
      stopGermanNames();
      superdoc.destroy();
    },
  };
}
