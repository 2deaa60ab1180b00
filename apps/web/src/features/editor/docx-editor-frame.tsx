import { Stack } from '@mantine/core';
import { useEffect, useId } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { SuperdocFrame } from '@/components/superdoc-frame';
import { useSuperdocOpening } from '@/components/use-superdoc-opening';
import { texts } from '@/texts';
import type { DocxEditor } from './docx-editor';
import { markDocumentEditable, markDocumentShown } from './editor-timing';
import { loadDocxEditor } from './load-docx-editor';

export interface DocxEditorFrameProps {
  docx: Blob;
  readOnly: boolean;
  /** The editor once it shows the document, and null again when it is gone. */
  onEditor: (editor: DocxEditor | null) => void;
  onChange: () => void;
  onFailed: () => void;
}

/** Tall enough to work on a page, short enough that the version list below stays in reach. */
const EDITOR_HEIGHT = '70vh';

/**
 * superdoc's editing surface with its formatting toolbar. A new `docx` or `readOnly` opens the editor
 * afresh; its owner keys this frame per opened version.
 */
export function DocxEditorFrame({ docx, readOnly, onEditor, onChange, onFailed }: DocxEditorFrameProps) {
  const toolbarId = useId();
  const { container, ready, firstViewDone } = useSuperdocOpening<DocxEditor>({
    docx,
    open: async (element, changed) =>
      (await loadDocxEditor()).openDocxEditor(element, docx, { readOnly, toolbarId, onChange: changed }),
    onEditor,
    onChange,
    onFailed,
    failure: 'Opening the DOCX in the editor failed',
    reopenOn: [readOnly, toolbarId],
  });

  useEffect(() => {
    if (ready) markDocumentEditable();
  }, [ready]);

  return (
    <Stack gap={0}>
      {/* superdoc renders its toolbar (role toolbar) into this element by ID and owns its content. Until
          the editor is ready the toolbar is laid out (superdoc fits its buttons to the width) but hidden
          and out of reach: half-built it is English, pale while it fades in, and acts on nothing. */}
      {!readOnly && (
        <div id={toolbarId} inert={!ready} style={ready ? undefined : { visibility: 'hidden' }} />
      )}
      <SuperdocFrame
        containerRef={container}
        height={EDITOR_HEIGHT}
        label={texts.editor.documentLabel}
        docx={docx}
        ready={ready}
        loader={<EditorLoader />}
        firstViewNotice={texts.editor.firstView}
        onShown={markDocumentShown}
        onFirstViewDone={firstViewDone}
      />
    </Stack>
  );
}

export function EditorLoader() {
  return <SectionLoader height={EDITOR_HEIGHT} label={texts.editor.loading} />;
}
