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
}: SuperdocFrameProps) {
  const frame = useRef<HTMLDivElement>(null);
  const shown = useRef(false);
  const firstViewScrolled = useRef(0);
  const firstViewHadFocus = useRef(false);
  const onShownRef = useRef(onShown);
  onShownRef.current = onShown;
  const showOnce = useRef(() => {
    if (shown.current) return;
    shown.current = true;
    onShownRef.current();
  }).current;

  // Another file in the same frame is another opening: shown anew, from its top.
  useLayoutEffect(() => {
    shown.current = false;
    firstViewScrolled.current = 0;
    firstViewHadFocus.current = false;
  }, [docx]);

  useEffect(() => {
    if (!ready) return;
    showOnce();
    // superdoc takes over where the reader of the first view had scrolled to, not at the top again.
    const element = frame.current;
    if (!element) return;
    element.scrollTop = firstViewScrolled.current * (element.scrollHeight - element.clientHeight);
    // …and the reader who was in the first view is in superdoc's frame now, where the keys scroll on.
    if (firstViewHadFocus.current) element.focus({ preventScroll: true });
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
            onShown={showOnce}
            onScroll={(share) => {
              firstViewScrolled.current = share;
            }}
            onRemovedWithFocus={() => {
              firstViewHadFocus.current = true;
            }}
          />
        </Box>
      )}
    </Box>
  );
}
