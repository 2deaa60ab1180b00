import { Box } from '@mantine/core';
import type { ReactNode, Ref } from 'react';

export interface SuperdocFrameProps {
  /** The element superdoc renders into. */
  containerRef: Ref<HTMLDivElement>;
  height: number | string;
  /** Accessible name of the document. */
  label: string;
  /** False while superdoc opens the document: `loader` covers the frame meanwhile. */
  ready: boolean;
  loader: ReactNode;
}

/** The scrolling frame the DOCX viewer and the editor give superdoc. */
export function SuperdocFrame({ containerRef, height, label, ready, loader }: SuperdocFrameProps) {
  return (
    <Box
      h={height}
      pos="relative"
      style={{
        overflow: 'auto',
        border: '1px solid var(--mantine-color-gray-4)',
        borderRadius: 'var(--mantine-radius-sm)',
      }}
    >
      {/* superdoc owns this element's content, so React never renders into it; it stays laid out while
          superdoc works, because superdoc measures it to paginate. */}
      <div ref={containerRef} role="document" aria-label={label} />
      {!ready && (
        <Box pos="absolute" inset={0} bg="var(--mantine-color-body)">
          {loader}
        </Box>
      )}
    </Box>
  );
}
