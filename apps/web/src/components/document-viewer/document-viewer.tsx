import { Box } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { preloadFirstViewRenderer } from '@/components/docx-first-view';
import { SectionLoader } from '@/components/section-loader';
import { SuperdocFrame } from '@/components/superdoc-frame';
import { texts } from '@/texts';
import { viewedDocumentQueryOptions } from './api';
import { DocumentUnavailable } from './document-unavailable';
import { loadDocxRenderer } from './load-renderer';
import { markViewerExact, markViewerShown } from './viewer-timing';

export interface DocumentViewerProps {
  /** Names the document; another key loads another document. */
  documentKey: string;
  /** Fetches the bytes: a PDF when `pdf`, a DOCX otherwise. */
  load: (signal: AbortSignal) => Promise<Blob>;
  pdf: boolean;
  /** Offered instead when the document cannot be shown here. */
  onDownload: () => void;
}

/** Tall enough to read a page, short enough that the buttons below stay in reach. */
const VIEWER_HEIGHT = '75vh';

/**
 * Shows a document read-only in the page: a PDF in the browser's own viewer, a DOCX rendered in the
 * browser. Whatever cannot be shown is offered as a download instead.
 */
export function DocumentViewer({ documentKey, load, pdf, onDownload }: DocumentViewerProps) {
  const document = useQuery(viewedDocumentQueryOptions(documentKey, pdf, load));
  const [renderFailed, setRenderFailed] = useState(false);
  // The first view's renderer loads while the bytes are on their way, not after they have arrived.
  useEffect(() => {
    if (!pdf) preloadFirstViewRenderer();
  }, [pdf]);

  if (document.isError || renderFailed) {
    return <DocumentUnavailable onDownload={onDownload} />;
  }
  if (document.isPending) return <ViewerLoader />;
  return pdf ? (
    <PdfFrame pdf={document.data} />
  ) : (
    <DocxFrame docx={document.data} onFailed={() => setRenderFailed(true)} />
  );
}

function ViewerLoader() {
  return <SectionLoader height={VIEWER_HEIGHT} label={texts.documentViewer.loading} />;
}

function PdfFrame({ pdf }: { pdf: Blob }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    // The type decides whether the browser opens its PDF viewer in the frame; a server that sent a
    // generic type would otherwise get a download prompt instead.
    const objectUrl = URL.createObjectURL(new Blob([pdf], { type: 'application/pdf' }));
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [pdf]);
  if (url === null) return <ViewerLoader />;
  return (
    <Box
      component="iframe"
      src={url}
      title={texts.documentViewer.title}
      onLoad={markViewerShown}
      w="100%"
      h={VIEWER_HEIGHT}
      style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 'var(--mantine-radius-sm)' }}
    />
  );
}

function DocxFrame({ docx, onFailed }: { docx: Blob; onFailed: () => void }) {
  const container = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const onFailedRef = useRef(onFailed);
  onFailedRef.current = onFailed;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let unmounted = false;
    let remove: (() => void) | undefined;
    setReady(false);
    // superdoc (5.6 MB) only now, unless the signing page started it early: compiled while the bytes
    // were on their way, it held up the first view of a signed-in sender, whose browser has it cached.
    loadDocxRenderer()
      .then(({ renderDocx }) => renderDocx(element, docx))
      .then(
        (removeRendering) => {
          if (unmounted) return removeRendering();
          remove = removeRendering;
          setReady(true);
          markViewerExact();
        },
        (error: unknown) => {
          if (unmounted) return;
          console.error('Rendering the DOCX failed', error);
          onFailedRef.current();
        },
      );
    return () => {
      unmounted = true;
      remove?.();
    };
  }, [docx]);

  return (
    <SuperdocFrame
      containerRef={container}
      height={VIEWER_HEIGHT}
      label={texts.documentViewer.title}
      docx={docx}
      ready={ready}
      loader={<ViewerLoader />}
      firstViewNotice={texts.documentViewer.firstView}
      onShown={markViewerShown}
    />
  );
}
