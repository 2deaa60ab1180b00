import { Alert, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { ReviewerView } from '@vertragsgenerator/domain';
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { viewedDocumentQueryOptions } from '@/components/document-viewer/api';
import { DocxFirstView, preloadFirstViewRenderer } from '@/components/docx-first-view';
import { DownloadInstead } from '@/components/download-instead';
import { SectionLoader } from '@/components/section-loader';
import { downloadReviewDocument, loadReviewDocument, reviewDocumentKey } from './review-api';
import type { SuggestingEditor } from './suggesting-editor';
import { SuggestingFrame } from './suggesting-frame';
import type { ReviewTexts } from './texts';

/** Tall enough to read a page, short enough that the comments below stay in reach. */
const DOCUMENT_HEIGHT = '75vh';

export interface ReviewDocumentProps {
  token: string;
  view: ReviewerView;
  texts: ReviewTexts;
  /** Words a failed call for the reader. */
  problemText: (error: unknown) => string;
  /** A failed call: true where the page answers it (the link closed, the code wanted again). */
  onFailure: (error: unknown) => boolean;
  /** The reviewer asked to suggest changes: superdoc shows the contract instead of the first view. */
  suggesting: boolean;
  onSuggest: () => void;
  /** superdoc could not open the contract: back to the first view. */
  onSuggestFailed: () => void;
  onEditor: (editor: SuggestingEditor | null) => void;
  onChange: () => void;
  /** The element around the contract, in whose text a selection becomes a comment's passage. */
  areaRef: RefObject<HTMLDivElement | null>;
}

/**
 * The contract: as light HTML text (the first view of the DOCX, which flows in a phone's width) until the
 * reviewer asks to suggest changes; only then superdoc, with its several megabytes, loads and shows the
 * same file in suggesting mode.
 */
export function ReviewDocument({
  token,
  view,
  texts,
  problemText,
  onFailure,
  suggesting,
  onSuggest,
  onSuggestFailed,
  onEditor,
  onChange,
  areaRef,
}: ReviewDocumentProps) {
  const docx = useQuery(
    viewedDocumentQueryOptions(reviewDocumentKey(token, view), false, (signal) =>
      loadReviewDocument(token, view.fileName, signal),
    ),
  );
  const [renderFailed, setRenderFailed] = useState(false);
  const [editorFailed, setEditorFailed] = useState(false);
  const [editorReady, setEditorReady] = useState(false);
  const status = useRef<HTMLParagraphElement>(null);
  // The renderer loads while the bytes are on their way, not after they have arrived.
  useEffect(preloadFirstViewRenderer, []);
  // A link withdrawn meanwhile, or a code wanted again, is the page's to show; anything else offers the
  // download instead.
  const failure = docx.error;
  useEffect(() => {
    if (failure) onFailure(failure);
  }, [failure, onFailure]);
  const open = view.returnedAt === null;

  const download = () =>
    void downloadReviewDocument(token, view.fileName).catch((error: unknown) =>
      notifications.show({ color: 'red', message: problemText(error) }),
    );

  function suggest() {
    setEditorFailed(false);
    setEditorReady(false);
    onSuggest();
  }
  // The button goes once pressed: the focus moves to what the editor says of itself, not to the page's top.
  useEffect(() => {
    if (suggesting) status.current?.focus();
  }, [suggesting]);

  const loader = <SectionLoader height={DOCUMENT_HEIGHT} label={texts.documentLoading} />;
  let content: ReactNode;
  if (docx.isError || renderFailed) {
    content = (
      <DownloadInstead
        title={texts.documentFailedTitle}
        text={texts.documentFailed}
        buttonLabel={texts.download}
        onDownload={download}
      />
    );
  } else if (docx.isPending) {
    content = loader;
  } else if (suggesting && open) {
    content = (
      <SuggestingFrame
        docx={docx.data}
        user={view.reviewer}
        texts={texts}
        height={DOCUMENT_HEIGHT}
        onEditor={(editor) => {
          setEditorReady(editor !== null);
          onEditor(editor);
        }}
        onChange={onChange}
        onFailed={() => {
          setEditorFailed(true);
          onSuggestFailed();
        }}
      />
    );
  } else {
    content = (
      <Box
        h={DOCUMENT_HEIGHT}
        style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 'var(--mantine-radius-sm)' }}
      >
        <DocxFirstView
          docx={docx.data}
          label={texts.documentLabel}
          reflow
          inSteps
          loader={loader}
          onShown={() => {}}
          onFailed={() => setRenderFailed(true)}
        />
      </Box>
    );
  }

  return (
    <Stack component="section" aria-labelledby="review-document-heading">
      <Title order={2} id="review-document-heading" fz={{ base: 'h4', sm: 'h2' }}>
        {texts.documentHeading}
      </Title>
      {open && !suggesting && <Text size="sm">{texts.suggestHint}</Text>}
      {suggesting && open && (
        <Text ref={status} tabIndex={-1} size="sm" role="status">
          {editorReady ? texts.editorReady : texts.editorLoading}
        </Text>
      )}
      {editorFailed && <Alert color="red">{texts.editorFailed}</Alert>}
      <div ref={areaRef}>{content}</div>
      <Group>
        {open && !suggesting && !docx.isError && !renderFailed && (
          <Button onClick={suggest} disabled={docx.isPending}>
            {texts.suggest}
          </Button>
        )}
        <Button variant="default" onClick={download}>
          {texts.download}
        </Button>
      </Group>
    </Stack>
  );
}
