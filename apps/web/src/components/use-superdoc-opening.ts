import { type RefObject, useEffect, useRef, useState } from 'react';

/**
 * How long superdoc waits for the first view at most: a first view that never finishes (a renderer chunk
 * that does not arrive) must not keep the document from being edited.
 */
export const FIRST_VIEW_WAIT_MS = 2_000;

export interface SuperdocOpening<Editor> {
  docx: Blob;
  /** Opens superdoc on `element` (its module loaded on demand); `onChange` on every edit. */
  open: (element: HTMLElement, onChange: () => void) => Promise<Editor>;
  /** The editor once it shows the document, and null again when it is gone. */
  onEditor: (editor: Editor | null) => void;
  onChange: () => void;
  onFailed: () => void;
  /** What is logged when superdoc cannot open the file. */
  failure: string;
  /** What else opens the editor afresh when it changes (besides the file). */
  reopenOn: readonly unknown[];
}

/**
 * The life of a superdoc editor in a `SuperdocFrame` (superdoc-frame.tsx), as the staff editor and the
 * counterparty's suggesting editor share it: superdoc opens the file in one long task of the same thread
 * as the light first view, so it waits until the first view has shown the file (or FIRST_VIEW_WAIT_MS),
 * then opens it in the frame's container; it is destroyed when the file or `reopenOn` changes and when
 * the frame goes. The callbacks may change with every render: the editor does not reopen for that.
 */
export function useSuperdocOpening<Editor extends { destroy(): void }>({
  docx,
  open,
  onEditor,
  onChange,
  onFailed,
  failure,
  reopenOn,
}: SuperdocOpening<Editor>): {
  container: RefObject<HTMLDivElement | null>;
  ready: boolean;
  /** For the frame's `onFirstViewDone`. */
  firstViewDone: () => void;
} {
  const container = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [firstViewDoneFor, setFirstViewDoneFor] = useState<Blob | null>(null);
  const firstViewDone = firstViewDoneFor === docx;
  const callbacks = useRef({ open, onEditor, onChange, onFailed });
  callbacks.current = { open, onEditor, onChange, onFailed };

  useEffect(() => {
    if (firstViewDone) return;
    const giveUp = setTimeout(() => setFirstViewDoneFor(docx), FIRST_VIEW_WAIT_MS);
    return () => clearTimeout(giveUp);
  }, [docx, firstViewDone]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reopenOn is the caller's list of what reopens the editor.
  useEffect(() => {
    const element = container.current;
    if (!element || !firstViewDone) return;
    let unmounted = false;
    let editor: Editor | undefined;
    setReady(false);
    callbacks.current
      .open(element, () => callbacks.current.onChange())
      .then(
        (opened) => {
          if (unmounted) return opened.destroy();
          editor = opened;
          setReady(true);
          callbacks.current.onEditor(opened);
        },
        (error: unknown) => {
          if (unmounted) return;
          console.error(failure, error);
          callbacks.current.onFailed();
        },
      );
    return () => {
      unmounted = true;
      if (!editor) return;
      callbacks.current.onEditor(null);
      editor.destroy();
    };
  }, [docx, firstViewDone, failure, ...reopenOn]);

  return { container, ready, firstViewDone: () => setFirstViewDoneFor(docx) };
}
