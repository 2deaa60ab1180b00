import { Alert, Button, FileButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { DOCX_MIME_TYPE, type ReviewerView } from '@vertragsgenerator/domain';
import { useId, useRef, useState } from 'react';
import { ApiRequestError } from '@/lib/api';
import { type ReturnedChanges, returnReview } from './review-api';
import type { ReviewTexts } from './texts';

/** The editor's part in the return: whether it is open and holds changes, and its export. */
export interface EditorChanges {
  /** superdoc shows the contract and the reviewer has changed something in it. */
  changed: boolean;
  /** superdoc is opening: what it holds is not there to send yet. */
  opening: boolean;
  exportDocx: (() => Promise<Blob>) | undefined;
}

export interface ReviewReturnProps {
  token: string;
  view: ReviewerView;
  texts: ReviewTexts;
  editor: EditorChanges;
  onAnswered: (view: ReviewerView) => void;
  /** A failed call: true where the page answers it (the link closed, the round sent back). */
  onFailure: (error: unknown) => boolean;
  problemText: (error: unknown) => string;
}

/** The answers with which the server refuses an uploaded file (macros, no Word file, too large, …). */
const REFUSED_FILE_STATUSES = new Set([400, 413, 415, 422]);

/** Thrown where the editor's export fails: the page says so in its own words. */
class ExportFailed extends Error {}

/**
 * Sends the round back: the suggestions made in the page's editor, the reviewer's own Word file, or,
 * with neither, only the comments already posted. Asks first, since nothing can be changed afterwards.
 * A refused file is reported beside the file's button; the editor and the comments stay as they were.
 */
export function ReviewReturn({
  token,
  view,
  texts,
  editor,
  onAnswered,
  onFailure,
  problemText,
}: ReviewReturnProps) {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const returnButton = useRef<HTMLButtonElement>(null);
  const resetFileInput = useRef<() => void>(null);
  const confirmBox = useRef<HTMLDivElement>(null);
  const fileErrorId = useId();
  const confirmTitleId = useId();
  const confirmTextId = useId();

  const source: ReturnedChanges['source'] = file ? 'upload' : editor.changed ? 'browser' : 'none';
  const sendBack = useMutation({
    mutationFn: async (): Promise<ReviewerView> => {
      let changes: ReturnedChanges = { source: 'none' };
      if (file) changes = { source: 'upload', file };
      else if (editor.changed && editor.exportDocx) {
        const docx = await editor.exportDocx().catch((error: unknown) => {
          throw new ExportFailed('The editor could not export the document', { cause: error });
        });
        changes = { source: 'browser', docx };
      }
      return returnReview(token, changes);
    },
    onMutate: () => {
      setProblem(undefined);
      setFileError(undefined);
    },
    onSuccess: onAnswered,
    onError: (error) => {
      setConfirming(false);
      if (error instanceof ExportFailed) {
        console.error('Exporting the suggestions failed', error.cause);
        setProblem(texts.exportFailed);
      } else if (onFailure(error)) {
        return;
      } else if (file && error instanceof ApiRequestError && REFUSED_FILE_STATUSES.has(error.status)) {
        setFileError(problemText(error));
      } else {
        setProblem(problemText(error));
      }
      // The question gives way to the button again, which takes the focus back once it is there.
      requestAnimationFrame(() => returnButton.current?.focus());
    },
  });

  function choose(chosen: File | null) {
    setProblem(undefined);
    if (!chosen) return;
    // The input forgets it at once: the same file, chosen again after fixing it in Word, is a change too.
    resetFileInput.current?.();
    if (!/\.docx$/i.test(chosen.name)) {
      setFile(null);
      setFileError(texts.uploadNotDocx);
      return;
    }
    setFile(chosen);
    setFileError(undefined);
  }

  function removeFile() {
    setFile(null);
    setFileError(undefined);
  }

  function askToConfirm() {
    setConfirming(true);
    // The question takes the focus, so that a screen reader reads it and the keyboard is at its buttons.
    requestAnimationFrame(() => confirmBox.current?.focus());
  }

  function cancel() {
    setConfirming(false);
    requestAnimationFrame(() => returnButton.current?.focus());
  }

  const what =
    source === 'upload' && file
      ? texts.returnWith.upload(file.name)
      : source === 'browser'
        ? texts.returnWith.browser
        : texts.returnWith.none;

  return (
    <Stack component="section" aria-labelledby="review-return-heading">
      <Title order={2} id="review-return-heading" fz={{ base: 'h4', sm: 'h2' }}>
        {texts.returnHeading}
      </Title>
      <Text>{texts.returnIntro(view.sender.name)}</Text>
      <Stack gap="xs">
        <Text size="sm">{texts.uploadDescription}</Text>
        <Group gap="sm">
          <FileButton onChange={choose} accept={`.docx,${DOCX_MIME_TYPE}`} resetRef={resetFileInput}>
            {(props) => (
              <Button
                {...props}
                variant="default"
                disabled={sendBack.isPending}
                aria-describedby={fileError ? fileErrorId : undefined}
              >
                {texts.uploadLabel}
              </Button>
            )}
          </FileButton>
          {file && (
            <Button variant="subtle" onClick={removeFile} disabled={sendBack.isPending}>
              {texts.uploadRemove}
            </Button>
          )}
        </Group>
        {file && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {texts.uploadChosen(file.name)}
          </Text>
        )}
        {fileError && (
          <Text id={fileErrorId} c="red" size="sm" role="alert">
            {fileError}
          </Text>
        )}
      </Stack>
      <Text size="sm" fw={600}>
        {what}
      </Text>
      {problem && <Alert color="red">{problem}</Alert>}
      {confirming ? (
        <Paper
          ref={confirmBox}
          withBorder
          p="md"
          tabIndex={-1}
          role="group"
          aria-labelledby={confirmTitleId}
          aria-describedby={confirmTextId}
          style={{ borderColor: 'var(--mantine-color-orange-6)' }}
        >
          <Stack gap="sm">
            <Text id={confirmTitleId} fw={700}>
              {texts.confirmTitle}
            </Text>
            <Text id={confirmTextId}>{texts.confirmText}</Text>
            <Group gap="sm">
              <Button onClick={() => sendBack.mutate()} loading={sendBack.isPending}>
                {texts.confirmReturn}
              </Button>
              <Button variant="default" onClick={cancel} disabled={sendBack.isPending}>
                {texts.cancel}
              </Button>
            </Group>
          </Stack>
        </Paper>
      ) : (
        <Group>
          <Button ref={returnButton} onClick={askToConfirm} disabled={editor.opening}>
            {texts.returnButton}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
