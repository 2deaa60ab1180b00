import { Alert, Button, Group, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ClauseDetail, type ClauseVersion, publishTemplateSchema } from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '@/lib/api';
import { clauseListQueryOptions, clauseQueryOptions, publishVersion } from './api';
import { clauseTexts } from './texts';

const t = clauseTexts.publish;

/**
 * Asks for the comment the audit log keeps and publishes. `replaces` is the version published when the
 * page was loaded: if someone else published meanwhile, the server refuses and says so.
 */
function PublishDialog({
  clauseKey,
  version,
  replaces,
  title,
  opened,
  onClose,
  onPublished,
}: {
  clauseKey: string;
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
    mutationFn: (publication: { comment: string; replaces: number | null }) =>
      publishVersion(clauseKey, version, publication),
    onSuccess: (detail) => {
      queryClient.setQueryData(clauseQueryOptions(clauseKey).queryKey, detail);
      void queryClient.invalidateQueries({ queryKey: clauseListQueryOptions.queryKey, exact: true });
      setComment('');
      onPublished();
    },
    // Whatever the answer, the page shows the clause as it now is (someone may have published).
    onError: () =>
      void queryClient.invalidateQueries({ queryKey: clauseQueryOptions(clauseKey).queryKey, exact: true }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = publishTemplateSchema.safeParse({ comment, replaces });
    if (!parsed.success) {
      return setCommentError(parsed.error.issues.find((issue) => issue.path[0] === 'comment')?.message);
    }
    setCommentError(undefined);
    publish.mutate(parsed.data);
  }

  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{t.intro(version, replaces)}</Text>
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

/** `Veröffentlichen`: the version documents get from now on, or an earlier one again (a rollback). */
export function PublishSection({ clause, version }: { clause: ClauseDetail; version: ClauseVersion }) {
  const [publishing, setPublishing] = useState(false);
  const [published, setPublished] = useState(false);
  const isPublished = version.version === clause.publishedVersion;
  const publishable = !isPublished && version.problems.length === 0;
  const label = version.status === 'ersetzt' ? t.rollback(version.version) : t.publish;

  return (
    <section aria-labelledby="publish-heading">
      <Title order={3} size="h4" id="publish-heading" mb="xs">
        {t.heading}
      </Title>
      <div aria-live="polite">
        {published && isPublished && (
          <Alert color="green" mb="xs">
            {t.done(version.version)}
          </Alert>
        )}
      </div>
      {isPublished ? (
        <Text>{t.isPublished}</Text>
      ) : publishable ? (
        <Group>
          <Text size="sm">{t.intro(version.version, clause.publishedVersion)}</Text>
          <Button onClick={() => setPublishing(true)}>{label}</Button>
        </Group>
      ) : (
        <Text>{t.cannotPublish}</Text>
      )}
      <PublishDialog
        clauseKey={clause.key}
        version={version.version}
        replaces={clause.publishedVersion}
        title={version.status === 'ersetzt' ? t.rollback(version.version) : t.title(version.version)}
        opened={publishing}
        onClose={() => setPublishing(false)}
        onPublished={() => {
          setPublishing(false);
          setPublished(true);
        }}
      />
    </section>
  );
}
