import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { texts } from '@/texts';

/** A list or page that could not be loaded: what went wrong, in the server's words, and a retry. */
export function LoadFailed({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
}) {
  return (
    <Alert color="red" title={title}>
      <Stack align="flex-start">
        <Text size="sm">{errorMessage(error)}</Text>
        <Button variant="default" size="xs" onClick={onRetry}>
          {texts.retry}
        </Button>
      </Stack>
    </Alert>
  );
}

/**
 * The page of one record (a contract, a batch) that could not be loaded: a 404 as the page's own heading
 * with the server's words (unknown, or someone else's), anything else as `LoadFailed` with its retry.
 * `back` leads to the list the record belongs to.
 */
export function RecordLoadFailed({
  back,
  error,
  notFoundTitle,
  loadFailedTitle,
  onRetry,
}: {
  back: ReactNode;
  error: Error;
  notFoundTitle: string;
  loadFailedTitle: string;
  onRetry: () => void;
}) {
  const notFound = error instanceof ApiRequestError && error.status === 404;
  return (
    <Stack>
      {back}
      {notFound ? (
        <>
          <Title order={1}>{notFoundTitle}</Title>
          <Text>{error.message}</Text>
        </>
      ) : (
        <LoadFailed title={loadFailedTitle} error={error} onRetry={onRetry} />
      )}
    </Stack>
  );
}
