import { Stack } from '@mantine/core';
import { useEffect, useId, useRef, useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { SuperdocFrame } from '@/components/superdoc-frame';
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
 * How long superdoc waits for the first view at most: a first view that never finishes (a renderer chunk
 * that does not arrive) must not keep the document from being edited.
 */
export const FIRST_VIEW_WAIT_MS = 2_000;

/**
 * superdoc's editing surface with its formatting toolbar. A new `docx` or `readOnly` opens the editor
 * afresh; its owner keys this frame per opened version.
 */
export function DocxEditorFrame({ docx, readOnly, onEditor, onChange, onFailed }: DocxEditorFrameProps) {
  const container = useRef<HTMLDivElement>(null);
  const toolbarId = useId();
  const [ready, setReady] = useState(false);
  // superdoc opens the file in one long task of the same thread as the first view: it waits until the first
  // view has shown the file (about a tenth of superdoc's opening), so that the reader sees it first.
  const [firstViewDoneFor, setFirstViewDoneFor] = useState<Blob | null>(null);
  const firstViewDone = firstViewDoneFor === docx;
  // The callbacks change with every render of the page; the editor must not reopen for that.
  const callbacks = useRef({ onEditor, onChange, onFailed });
  callbacks.current = { onEditor, onChange, onFailed };

  useEffect(() => {
    if (firstViewDone) return;
    const giveUp = setTimeout(() => setFirstViewDoneFor(docx), FIRST_VIEW_WAIT_MS);
    return () => clearTimeout(giveUp);
  }, [docx, firstViewDone]);

  useEffect(() => {
    const element = container.current;
    if (!element || !firstViewDone) return;
    let unmounted = false;
    let editor: DocxEditor | undefined;
    setReady(false);
    loadDocxEditor()
      .then(({ openDocxEditor }) =>
        openDocxEditor(element, docx, {
          readOnly,
          toolbarId,
          onChange: () => callbacks.current.onChange(),
        }),
      )
      .then(
        (opened) => {
          if (unmounted) return opened.destroy();
          editor = opened;
          setReady(true);
          callbacks.current.onEditor(opened);
        },
        (error: unknown) => {
          if (unmounted) return;
          console.error('Opening the DOCX in the editor failed', error);
          callbacks.current.onFailed();
        },
      );
    return () => {
      unmounted = true;
      if (!editor) return;
      callbacks.current.onEditor(null);
      editor.destroy();
    };
  }, [docx, readOnly, toolbarId, firstViewDone]);

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
        onFirstViewDone={() => setFirstViewDoneFor(docx)}
      />
    </Stack>
  );
}

export function EditorLoader() {
  return <SectionLoader height={EDITOR_HEIGHT} label={texts.editor.loading} />;
}
