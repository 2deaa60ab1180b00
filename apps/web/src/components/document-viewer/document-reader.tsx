import { Box } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DocxFirstView, preloadFirstViewRenderer } from '@/components/docx-first-view';
import { SectionLoader } from '@/components/section-loader';
import { texts } from '@/texts';
import { viewedDocumentQueryOptions } from './api';
import { DocumentUnavailable } from './document-unavailable';
import { markViewerShown } from './viewer-timing';

export interface DocumentReaderProps {
  /** Names the document; another key loads another document. */
  documentKey: string;
  /** Fetches the DOCX. */
  load: (signal: AbortSignal) => Promise<Blob>;
  /** Offered instead when the document cannot be shown here. */
  onDownload: () => void;
}

/** Tall enough to read a page, short enough that the form below stays in reach. */
const READER_HEIGHT = '75vh';

/**
 * Shows a DOCX to be read, not edited, on any screen: as HTML text (docx-preview) that a screen reader
 * reads and that flows in a phone's width, with neither superdoc (5.6 MB, which a reader does not need)
 * nor a PDF in a frame, which Chrome on Android cannot show and iOS Safari shows only the first page of.
 * Whatever cannot be shown is offered as a download instead.
 */
export function DocumentReader({ documentKey, load, onDownload }: DocumentReaderProps) {
  const document = useQuery(viewedDocumentQueryOptions(documentKey, false, load));
  const [renderFailed, setRenderFailed] = useState(false);
  // The renderer loads while the bytes are on their way, not after they have arrived.
  useEffect(preloadFirstViewRenderer, []);

  if (document.isError || renderFailed) {
    return <DocumentUnavailable onDownload={onDownload} />;
  }
  const loader = <SectionLoader height={READER_HEIGHT} label={texts.documentViewer.loading} />;
  if (document.isPending) return loader;
  return (
    <Box
      h={READER_HEIGHT}
      style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 'var(--mantine-radius-sm)' }}
    >
      <DocxFirstView
        docx={document.data}
        label={texts.documentViewer.title}
        reflow
        inSteps
        loader={loader}
        onShown={markViewerShown}
        onFailed={() => setRenderFailed(true)}
      />
    </Box>
  );
}
