import { Box } from '@mantine/core';
import { type ReactNode, type Ref, useEffect, useLayoutEffect, useRef } from 'react';
import { DocxFirstView } from './docx-first-view';

export interface SuperdocFrameProps {
  /** The element superdoc renders into. */
  containerRef: Ref<HTMLDivElement>;
  height: number | string;
  /** Accessible name of the document. */
  label: string;
  /** The DOCX superdoc opens; a first view shows it at once while superdoc loads. */
  docx: Blob;
  /** False while superdoc opens the document: the first view covers the frame meanwhile. */
  ready: boolean;
  /** Covers the frame until either rendering shows the document. */
  loader: ReactNode;
  /** Said above the first view: what is still loading. */
  firstViewNotice: string;
  /** Called once, when the document first shows: in the first view or, if that is slower, in superdoc. */
  onShown: () => void;
  /**
   * Called once per file when the first view has shown it or cannot: superdoc's opening, one long task on
   * the same thread, waits for it, so that the reader sees the document first.
   */
  onFirstViewDone?: () => void;
}

/**
 * What the frame knows of the file it shows: whether it was reported shown, and how the reader left its
 * first view.
 */
interface Opening {
  docx: Blob;
  shown: boolean;
  /** The share of the first view scrolled past (0–1). */
  firstViewScrolled: number;
  firstViewHadFocus: boolean;
}

function newOpening(docx: Blob): Opening {
  return { docx, shown: false, firstViewScrolled: 0, firstViewHadFocus: false };
}

/**
 * The scrolling frame the DOCX viewer and the editor give superdoc. superdoc takes about a second to
 * load and open a contract; until it is ready, a lighter renderer shows the same file (DocxFirstView),
 * so that people read their document at once and only editing waits.
 */
export function SuperdocFrame({
  containerRef,
  height,
  label,
  docx,
  ready,
  loader,
  firstViewNotice,
  onShown,
  onFirstViewDone,
}: SuperdocFrameProps) {
  const frame = useRef<HTMLDivElement>(null);
  const opening = useRef<Opening>(newOpening(docx));
  const onShownRef = useRef(onShown);
  onShownRef.current = onShown;
  const showOnce = useRef(() => {
    if (opening.current.shown) return;
    opening.current.shown = true;
    onShownRef.current();
  }).current;

  // Another file in the same frame is another opening: shown anew, from its top.
  useLayoutEffect(() => {
    if (opening.current.docx !== docx) opening.current = newOpening(docx);
  }, [docx]);

  useEffect(() => {
    if (!ready) return;
    showOnce();
    // superdoc takes over where the reader of the first view had scrolled to, not at the top again.
    const element = frame.current;
    if (!element) return;
    const { firstViewScrolled, firstViewHadFocus } = opening.current;
    element.scrollTop = firstViewScrolled * (element.scrollHeight - element.clientHeight);
    // …and the reader who was in the first view is in superdoc's frame now, where the keys scroll on.
    if (firstViewHadFocus) element.focus({ preventScroll: true });
  }, [ready, showOnce]);

  return (
    <Box
      ref={frame}
      // Focused only from here, when the first view it replaces had the focus.
      tabIndex={-1}
      h={height}
      pos="relative"
      style={{
        // While the first view covers it, only the first view scrolls (its own box).
        overflow: ready ? 'auto' : 'hidden',
        border: '1px solid var(--mantine-color-gray-4)',
        borderRadius: 'var(--mantine-radius-sm)',
      }}
    >
      {/* superdoc owns this element's content, so React never renders into it; it stays laid out while
          superdoc works, because superdoc measures it to paginate, but hidden from keyboard and screen
          readers until it is ready, as the first view stands for it meanwhile. */}
      <div ref={containerRef} role="document" aria-label={label} inert={!ready} />
      {!ready && (
        <Box pos="absolute" inset={0} bg="var(--mantine-color-body)">
          <DocxFirstView
            docx={docx}
            label={label}
            notice={firstViewNotice}
            loader={loader}
            onShown={() => {
              showOnce();
              onFirstViewDone?.();
            }}
            onFailed={() => {
              console.warn('The first view of the DOCX failed; waiting for superdoc');
              onFirstViewDone?.();
            }}
            onScroll={(share) => {
              opening.current.firstViewScrolled = share;
            }}
            onRemovedWithFocus={() => {
              opening.current.firstViewHadFocus = true;
            }}
          />
        </Box>
      )}
    </Box>
  );
}
