import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { type ClauseVersion, type NewClauseVersion, newClauseVersionSchema } from '@vertragsgenerator/domain';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useFirstInvalidFocus } from '@/components/form';
import { errorMessage } from '@/lib/api';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { CLAUSES_QUERY_KEY, saveVersion } from './api';
import {
  type ContentDraft,
  contentOf,
  draftOf,
  errorAt,
  fieldErrorsOf,
  NO_ERRORS,
  serverFieldErrors,
} from './content-draft';
import { ContentEditor } from './content-editor';
import { editorTexts } from './editor-texts';

const t = editorTexts.newVersion;

/**
 * `Neue Version`: the content of the version under review to change — variants, rules, texts, the
 * option — and what changes. Saved as a draft the server checks at once; its problems show with it
 * (`onSaved` selects it).
 */
export function NewVersionForm({
  clauseKey,
  base,
  onCancel,
  onSaved,
}: {
  clauseKey: string;
  base: ClauseVersion;
  onCancel: () => void;
  onSaved: (version: ClauseVersion) => void;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const queryClient = useQueryClient();
  const [content, setContent] = useState<ContentDraft>(() => draftOf(base.content));
  const [comment, setComment] = useState('');
  const [attempted, setAttempted] = useState(false);
  const { container, focusFirstInvalid } = useFirstInvalidFocus<HTMLFormElement>();
  const save = useSingleMutation({
    mutationFn: (version: NewClauseVersion) => saveVersion(clauseKey, version),
    onSuccess: async (saved) => {
      // The list's draft count and the clause's versions both changed.
      await queryClient.invalidateQueries({ queryKey: CLAUSES_QUERY_KEY });
      notifications.show({
        color: saved.problems.length === 0 ? 'green' : 'yellow',
        message: t.saved(saved.version, saved.problems.length),
      });
      onSaved(saved);
    },
    onError: () => focusFirstInvalid(),
  });

  const request: NewClauseVersion = { content: contentOf(content), comment };
  const parsed = newClauseVersionSchema.safeParse(request);
  const clientErrors = attempted && !parsed.success ? fieldErrorsOf(parsed.error) : NO_ERRORS;
  const fromServer = serverFieldErrors(save.error);
  const error = (field: string) => errorAt(field, clientErrors, fromServer);

  function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    if (parsed.success) return save.mutate(parsed.data);
    save.reset();
    focusFirstInvalid();
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <form ref={container} onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h3" id={headingId} ref={heading} tabIndex={-1}>
            {t.heading}
          </Title>
          <Text size="sm" c="dimmed">
            {t.intro(base.version)}
          </Text>
          <ContentEditor value={content} onChange={setContent} error={(field) => error(`content.${field}`)} />
          <TextInput
            label={t.comment}
            placeholder={t.commentPlaceholder}
            required
            maxLength={500}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
            error={error('comment')}
          />
          <div aria-live="polite">
            {((attempted && !parsed.success) || Object.keys(fromServer).length > 0) && (
              <Text c="red.8" size="sm">
                {editorTexts.validation.fixFields}
              </Text>
            )}
            {save.isError && <Alert color="red">{errorMessage(save.error)}</Alert>}
          </div>
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t.submit}
            </Button>
            <Button variant="default" onClick={onCancel}>
              {t.cancel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
