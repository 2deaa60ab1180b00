import { Alert, Button, Stack, Text } from '@mantine/core';
import { errorMessage } from '@/lib/api';
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
