import { useEffect, useRef, useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { SuperdocFrame } from '@/components/superdoc-frame';
import { loadSuggestingEditor } from './load-suggesting-editor';
import type { SuggestingEditor } from './suggesting-editor';
import type { ReviewTexts } from './texts';

export interface SuggestingFrameProps {
  docx: Blob;
  user: { name: string; email: string };
  texts: ReviewTexts;
  height: string;
  /** The editor once it shows the document, and null again when it is gone. */
  onEditor: (editor: SuggestingEditor | null) => void;
  onChange: () => void;
  onFailed: () => void;
}

/**
 * How long superdoc waits for the first view at most: a first view that never finishes (a renderer chunk
 * that does not arrive) must not keep the document from being edited.
 */
const FIRST_VIEW_WAIT_MS = 2_000;

/**
 * superdoc in suggesting mode in the frame the staff editor uses (components/superdoc-frame.tsx): the
 * light first view shows the contract again at once, and superdoc takes its place once it has opened it.
 */
export function SuggestingFrame({
  docx,
  user,
  texts,
  height,
  onEditor,
  onChange,
  onFailed,
}: SuggestingFrameProps) {
  const container = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  // superdoc opens the file in one long task of the same thread as the first view: it waits until the
  // first view has shown the file, so that the reader is not left with a loader meanwhile.
  const [firstViewDone, setFirstViewDone] = useState(false);
  // The callbacks change with every render of the page; the editor must not reopen for that.
  const callbacks = useRef({ onEditor, onChange, onFailed });
  callbacks.current = { onEditor, onChange, onFailed };
  const { name, email } = user;

  useEffect(() => {
    if (firstViewDone) return;
    const giveUp = setTimeout(() => setFirstViewDone(true), FIRST_VIEW_WAIT_MS);
    return () => clearTimeout(giveUp);
  }, [firstViewDone]);

  useEffect(() => {
    const element = container.current;
    if (!element || !firstViewDone) return;
    let unmounted = false;
    let editor: SuggestingEditor | undefined;
    loadSuggestingEditor()
      .then(({ openSuggestingEditor }) =>
        openSuggestingEditor(element, docx, {
          user: { name, email },
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
          console.error('Opening the DOCX for suggestions failed', error);
          callbacks.current.onFailed();
        },
      );
    return () => {
      unmounted = true;
      if (!editor) return;
      callbacks.current.onEditor(null);
      editor.destroy();
    };
  }, [docx, name, email, firstViewDone]);

  return (
    <SuperdocFrame
      containerRef={container}
      height={height}
      label={texts.editorLabel}
      docx={docx}
      ready={ready}
      loader={<SectionLoader height={height} label={texts.editorLoading} />}
      firstViewNotice={texts.editorFirstView}
      onShown={() => {}}
      onFirstViewDone={() => setFirstViewDone(true)}
    />
  );
}
