import { Alert, Button, Group, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type PublishTemplate,
  publishTemplateSchema,
  type TemplateVersionStatus,
} from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '@/lib/api';
import { versionLibraryTexts } from './texts';

const t = versionLibraryTexts.publish;

/** What publishing needs to know of the version under review. */
export interface PublishableVersion {
  version: number;
  status: TemplateVersionStatus;
  problems: readonly unknown[];
}

interface PublishProps {
  /** What publishing the version does to the next document: `Version 3 ersetzt Version 1: …`. */
  intro: (version: number, published: number | null) => string;
  /** The call that publishes the version; it answers the record as it now is. */
  publish: (publication: PublishTemplate) => Promise<unknown>;
  /** The record's query: set to the answer, or fetched again after a refusal. */
  recordQueryKey: QueryKey;
  /** The list of records, fetched again after a publication. */
  listQueryKey: QueryKey;
}

/**
 * Asks for the comment the audit log keeps and publishes. `replaces` is the version published when the
 * page was loaded: if someone else published meanwhile, the server refuses and says so.
 */
function PublishDialog({
  version,
  replaces,
  title,
  opened,
  onClose,
  onPublished,
  intro,
  publish,
  recordQueryKey,
  listQueryKey,
}: PublishProps & {
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
  const mutation = useMutation({
    mutationFn: publish,
    onSuccess: (record) => {
      queryClient.setQueryData(recordQueryKey, record);
      void queryClient.invalidateQueries({ queryKey: listQueryKey, exact: true });
      setComment('');
      onPublished();
    },
    // Whatever the answer, the page shows the record as it now is (someone may have published).
    onError: () => void queryClient.invalidateQueries({ queryKey: recordQueryKey, exact: true }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = publishTemplateSchema.safeParse({ comment, replaces });
    if (!parsed.success) {
      return setCommentError(parsed.error.issues.find((issue) => issue.path[0] === 'comment')?.message);
    }
    setCommentError(undefined);
    mutation.mutate(parsed.data);
  }

  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">{intro(version, replaces)}</Text>
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
          {mutation.isError && <Alert color="red">{errorMessage(mutation.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t.cancel}
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {t.confirm}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * `Veröffentlichen`: the version documents get from now on, or an earlier one again (a rollback) — of a
 * template or a clause, whose page passes the call and its queries. `published` is the version published
 * when the page was loaded.
 */
export function PublishSection({
  version,
  published,
  ...call
}: PublishProps & { version: PublishableVersion; published: number | null }) {
  const [publishing, setPublishing] = useState(false);
  const [done, setDone] = useState(false);
  const isPublished = version.version === published;
  const publishable = !isPublished && version.problems.length === 0;
  const rollback = version.status === 'ersetzt';

  return (
    <section aria-labelledby="publish-heading">
      <Title order={3} size="h4" id="publish-heading" mb="xs">
        {t.heading}
      </Title>
      <div aria-live="polite">
        {done && isPublished && (
          <Alert color="green" mb="xs">
            {t.done(version.version)}
          </Alert>
        )}
      </div>
      {isPublished ? (
        <Text>{t.isPublished}</Text>
      ) : publishable ? (
        <Group>
          <Text size="sm">{call.intro(version.version, published)}</Text>
          <Button onClick={() => setPublishing(true)}>
            {rollback ? t.rollback(version.version) : t.publish}
          </Button>
        </Group>
      ) : (
        <Text>{t.cannotPublish}</Text>
      )}
      <PublishDialog
        {...call}
        version={version.version}
        replaces={published}
        title={rollback ? t.rollback(version.version) : t.title(version.version)}
        opened={publishing}
        onClose={() => setPublishing(false)}
        onPublished={() => {
          setPublishing(false);
          setDone(true);
        }}
      />
    </section>
  );
}
