import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '@/lib/api';
import { publishVersion, templateListQueryOptions, templateQueryOptions } from './api';
import { templateTexts } from './texts';

const t = templateTexts.publish;

/**
 * Asks for the comment the audit log keeps and publishes. `replaces` is the version published when
 * the page was loaded: if someone else published meanwhile, the server refuses and says so.
 */
export function PublishDialog({
  name,
  version,
  replaces,
  title,
  opened,
  onClose,
  onPublished,
}: {
  name: string;
  version: number;
  replaces: number | null;
  title: string;
  opened: boolean;
  onClose: () => void;
  onPublished: () => void;
}) {
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | undefined>();
  const publish = useMutation({
    mutationFn: () => publishVersion(name, version, { comment: comment.trim(), replaces }),
    onSuccess: (detail) => {
      queryClient.setQueryData(templateQueryOptions(name).queryKey, detail);
      void queryClient.invalidateQueries({ queryKey: templateListQueryOptions.queryKey, exact: true });
      setComment('');
      onPublished();
    },
    // Whatever the answer, the page shows the template as it now is (someone may have published).
    onError: () =>
      void queryClient.invalidateQueries({ queryKey: templateQueryOptions(name).queryKey, exact: true }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!comment.trim()) return setCommentError(templateTexts.publish.commentMissing);
    setCommentError(undefined);
    publish.mutate();
  }

  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{templateTexts.review.publishIntro(version, replaces)}</Text>
          <Textarea
            label={t.comment}
            placeholder={t.commentPlaceholder}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
            error={commentError}
            maxLength={500}
            required
            data-autofocus
          />
          {publish.isError && <Alert color="red">{errorMessage(publish.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t.cancel}
            </Button>
            <Button type="submit" loading={publish.isPending}>
              {t.confirm}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
