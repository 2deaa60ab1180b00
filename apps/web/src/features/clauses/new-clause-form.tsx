import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { clauseTag, type NewClause, newClauseSchema } from '@vertragsgenerator/domain';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useFirstInvalidFocus } from '@/components/form';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { clauseListQueryOptions, clauseQueryOptions, createClause } from './api';
import {
  type ContentDraft,
  contentOf,
  emptyVariant,
  errorAt,
  type FieldErrors,
  fieldErrorsOf,
  NO_ERRORS,
  serverFieldErrors,
} from './content-draft';
import { ContentEditor } from './content-editor';
import { editorTexts } from './editor-texts';
import { clausePath } from './paths';
import { clauseTexts } from './texts';

const t = clauseTexts.create;

/** A key already taken is the key field's problem, whatever words the server chose for it. */
function keyConflict(error: unknown): FieldErrors {
  return error instanceof ApiRequestError && error.status === 409 ? { key: [error.message] } : NO_ERRORS;
}

/**
 * `Neue Klausel`: its key, name and approval flag with the content of its first version, a draft. Nothing
 * is marked before the first attempt; then the browser's and the server's verdicts stand at their fields
 * and the focus goes to the first of them. Once created, the clause's page opens.
 */
export function NewClauseForm({ onCancel }: { onCancel: () => void }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened by a click: the heading takes the focus, so a screen reader says where it is.
  useEffect(() => heading.current?.focus(), []);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [needsApproval, setNeedsApproval] = useState(false);
  const [content, setContent] = useState<ContentDraft>(() => ({
    variants: [emptyVariant('Standard')],
    option: 'always',
  }));
  const [comment, setComment] = useState('');
  const [attempted, setAttempted] = useState(false);
  const { container, focusFirstInvalid } = useFirstInvalidFocus<HTMLFormElement>();
  const create = useSingleMutation({
    mutationFn: createClause,
    onSuccess: (detail) => {
      queryClient.setQueryData(clauseQueryOptions(detail.key).queryKey, detail);
      void queryClient.invalidateQueries({ queryKey: clauseListQueryOptions.queryKey, exact: true });
      navigate(clausePath(detail.key));
    },
    onError: () => focusFirstInvalid(),
  });

  const request: NewClause = { key, name, needsApproval, content: contentOf(content), comment };
  const parsed = newClauseSchema.safeParse(request);
  const clientErrors = attempted && !parsed.success ? fieldErrorsOf(parsed.error) : NO_ERRORS;
  const fromServer = { ...serverFieldErrors(create.error), ...keyConflict(create.error) };
  const error = (field: string) => errorAt(field, clientErrors, fromServer);
  const keyTaken = Object.keys(keyConflict(create.error)).length > 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    if (parsed.success) return create.mutate(parsed.data);
    // The server's verdict on an earlier attempt no longer applies.
    create.reset();
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
            {t.intro}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t.key}
              description={t.keyDescription(clauseTag(key.trim() || 'schluessel'))}
              placeholder={t.keyPlaceholder}
              required
              maxLength={40}
              autoComplete="off"
              spellCheck={false}
              value={key}
              onChange={(event) => setKey(event.currentTarget.value)}
              error={error('key')}
            />
            <TextInput
              label={t.name}
              placeholder={t.namePlaceholder}
              required
              maxLength={80}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={error('name')}
            />
          </SimpleGrid>
          <Checkbox
            label={t.needsApproval}
            description={t.needsApprovalDescription}
            checked={needsApproval}
            onChange={(event) => setNeedsApproval(event.currentTarget.checked)}
            error={error('needsApproval')}
          />
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
            {create.isError && !keyTaken && <Alert color="red">{errorMessage(create.error)}</Alert>}
          </div>
          <Group>
            <Button type="submit" loading={create.isPending}>
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
