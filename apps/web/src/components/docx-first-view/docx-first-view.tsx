import { Box, Group, Loader, Text } from '@mantine/core';
import { type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { loadFirstViewRenderer } from './load-first-view';

export interface DocxFirstViewProps {
  docx: Blob;
  /** Accessible name of the document. */
  label: string;
  /** Said above the rendering (and to screen readers): what is still loading, if anything. */
  notice?: string;
  /** On a screen narrower than the document's pages, the text flows in the screen's width instead. */
  reflow?: boolean;
  /** Reads the file a part at a time, each in a task of its own, where no superdoc follows (DocxReadInSteps). */
  inSteps?: boolean;
  /** Covers the view until it shows the document, and stays if it cannot. */
  loader: ReactNode;
  /** Called once the document shows. */
  onShown: () => void;
  /** Called with the share of the rendering scrolled past (0–1) as the reader scrolls. */
  onScroll?: (share: number) => void;
  /** Called when the view goes away while it has the keyboard focus, to hand the focus on. */
  onRemovedWithFocus?: () => void;
  /** Called when the file cannot be read as a DOCX; without it, the loader stays (superdoc decides). */
  onFailed?: () => void;
}

/**
 * The document rendered at once as plain HTML pages, to be read while superdoc (which edits and shows it
 * exactly) still loads; its owner replaces it with superdoc's rendering as soon as that is ready. If
 * this renderer cannot read the file, the loader simply stays: superdoc decides whether the file opens.
 * Where no superdoc follows (the signing page), it is the document's only view, as text that reflows.
 */
export function DocxFirstView({
  docx,
  label,
  notice,
  reflow = false,
  inSteps = false,
  loader,
  onShown,
  onScroll,
  onRemovedWithFocus,
  onFailed,
}: DocxFirstViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(false);
  const onShownRef = useRef(onShown);
  onShownRef.current = onShown;
  const onRemovedWithFocusRef = useRef(onRemovedWithFocus);
  onRemovedWithFocusRef.current = onRemovedWithFocus;
  const onFailedRef = useRef(onFailed);
  onFailedRef.current = onFailed;

  // A layout effect's cleanup runs while the view is still in the page: the last moment to see whether
  // the reader was in it, whose focus would otherwise fall back to the start of the page.
  useLayoutEffect(() => {
    const element = scroller.current;
    return () => {
      if (element?.contains(document.activeElement)) onRemovedWithFocusRef.current?.();
    };
  }, []);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let unmounted = false;
    loadFirstViewRenderer()
      .then(({ renderFirstView }) => renderFirstView(element, docx, { inSteps }))
      .then(
        () => {
          if (unmounted) return;
          setShown(true);
          onShownRef.current();
        },
        (error: unknown) => {
          if (unmounted) return;
          if (onFailedRef.current) onFailedRef.current();
          else console.warn('The first view of the DOCX failed; waiting for superdoc', error);
        },
      );
    return () => {
      unmounted = true;
      element.replaceChildren();
    };
  }, [docx, inSteps]);

  return (
    <Box h="100%" pos="relative">
      <Box
        ref={scroller}
        h="100%"
        style={{ overflow: 'auto' }}
        // Scrollable, so it must be reachable by keyboard (arrow keys and page keys scroll it); until it
        // shows anything, the loader speaks for it.
        tabIndex={shown ? 0 : -1}
        aria-hidden={shown ? undefined : true}
        role="document"
        aria-label={notice ? `${label}: ${notice}` : label}
        onScroll={(event) => {
          const { scrollTop, scrollHeight, clientHeight } = event.currentTarget;
          const range = scrollHeight - clientHeight;
          onScroll?.(range > 0 ? scrollTop / range : 0);
        }}
      >
        {shown && notice && (
          <Group
            gap="xs"
            px="sm"
            py={6}
            pos="sticky"
            top={0}
            bg="var(--mantine-color-body)"
            style={{ zIndex: 1 }}
          >
            <Loader size="xs" />
            <Text size="sm" role="status">
              {notice}
            </Text>
          </Group>
        )}
        <div ref={container} className={reflow ? 'docx-reflow' : undefined} />
      </Box>
      {!shown && (
        <Box pos="absolute" inset={0} bg="var(--mantine-color-body)">
          {loader}
        </Box>
      )}
    </Box>
  );
}
