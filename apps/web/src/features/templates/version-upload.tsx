import { Alert, Button, FileInput, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DOCX_MIME_TYPE, TEMPLATE_MAX_BYTES, type TemplateVersion } from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '@/lib/api';
import { UnreadableFileError, useFreshFileChoice } from '@/lib/chosen-file';
import { TEMPLATES_QUERY_KEY, uploadVersion } from './api';
import { templateTexts } from './texts';

const t = templateTexts.upload;

/**
 * `Neue Version hochladen`: a DOCX and what it changes. The server checks it at once and keeps it as
 * a draft; what it found is shown with the version (`onUploaded`).
 */
export function VersionUpload({
  name,
  onUploaded,
}: {
  name: string;
  onUploaded: (version: TemplateVersion) => void;
}) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [comment, setComment] = useState('');
  const [fileError, setFileError] = useState<string | undefined>();
  const upload = useMutation({
    mutationFn: (chosen: File) => uploadVersion(name, chosen, comment.trim()),
    onSuccess: async (version) => {
      setFile(null);
      setComment('');
      await queryClient.invalidateQueries({ queryKey: TEMPLATES_QUERY_KEY });
      onUploaded(version);
    },
    // A file that cannot be read is to be chosen again, as the message under the field says.
    onError: (error) => {
      if (error instanceof UnreadableFileError) setFileError(error.message);
    },
  });

  const fileChoice = useFreshFileChoice((chosen) => {
    setFile(chosen);
    setFileError(undefined);
    upload.reset();
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    upload.reset();
    if (!file) return setFileError(t.chooseFile);
    if (file.size > TEMPLATE_MAX_BYTES) return setFileError(t.tooLarge);
    setFileError(undefined);
    upload.mutate(file);
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="upload-heading">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h3" id="upload-heading">
            {t.heading}
          </Title>
          <Group align="flex-start" grow>
            <FileInput
              label={t.file}
              description={t.fileDescription}
              accept={`.docx,${DOCX_MIME_TYPE}`}
              value={file}
              {...fileChoice}
              clearable
              clearButtonProps={{ 'aria-label': t.clear }}
              error={fileError}
            />
            <TextInput
              label={t.comment}
              placeholder={t.commentPlaceholder}
              value={comment}
              maxLength={500}
              onChange={(event) => setComment(event.currentTarget.value)}
            />
          </Group>
          <Group>
            <Button type="submit" loading={upload.isPending}>
              {t.submit}
            </Button>
          </Group>
          <div aria-live="polite">
            {upload.isError && !fileError && <Alert color="red">{errorMessage(upload.error)}</Alert>}
          </div>
        </Stack>
      </form>
    </Paper>
  );
}
