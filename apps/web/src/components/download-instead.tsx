import { Alert, Button, Stack, Text } from '@mantine/core';

export interface DownloadInsteadProps {
  title: string;
  text: string;
  buttonLabel: string;
  onDownload: () => void;
}

/** What the viewer and the editor show when the browser cannot render a document: the file itself. */
export function DownloadInstead({ title, text, buttonLabel, onDownload }: DownloadInsteadProps) {
  return (
    <Alert color="red" title={title}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{text}</Text>
        <Button variant="light" onClick={onDownload}>
          {buttonLabel}
        </Button>
      </Stack>
    </Alert>
  );
}
