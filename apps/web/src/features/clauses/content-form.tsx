import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type { z } from 'zod';
import { useFirstInvalidFocus } from '@/components/form';
import { errorMessage } from '@/lib/api';
import {
  type ContentDraft,
  errorAt,
  type FieldErrors,
  fieldErrorsOf,
  NO_ERRORS,
  serverFieldErrors,
} from './content-draft';
import { ContentEditor } from './content-editor';
import { editorTexts } from './editor-texts';

/** What a form saving a clause's content holds: the content, what changes, and where the focus goes. */
export function useContentForm(initial: () => ContentDraft) {
  const [content, setContent] = useState<ContentDraft>(initial);
  const [comment, setComment] = useState('');
  const { container, focusFirstInvalid } = useFirstInvalidFocus<HTMLFormElement>();
  return { content, setContent, comment, setComment, container, focusFirstInvalid };
}
export type ContentFormState = ReturnType<typeof useContentForm>;

/** How a form checks its request: at its fields, once it was sent, and on submit. */
export interface ContentCheck {
  /** A field's message, the browser's before the server's; nothing before the first attempt. */
  error: (field: string) => string | undefined;
  /** Some field is marked. */
  invalid: boolean;
  submit: (event: FormEvent) => void;
}

/**
 * The check of a form saving a clause's content: nothing is marked before the first attempt; then the
 * browser's and the server's verdicts (with `moreServerErrors`) stand at their fields and the focus goes
 * to the first of them. A valid request is sent with `mutation`.
 */
export function useContentCheck<T>(
  { focusFirstInvalid }: ContentFormState,
  schema: z.ZodType<T>,
  request: T,
  mutation: { error: unknown; mutate: (request: T) => void; reset: () => void },
  moreServerErrors: FieldErrors = NO_ERRORS,
): ContentCheck {
  const [attempted, setAttempted] = useState(false);
  const parsed = schema.safeParse(request);
  const clientErrors = attempted && !parsed.success ? fieldErrorsOf(parsed.error) : NO_ERRORS;
  const fromServer = { ...serverFieldErrors(mutation.error), ...moreServerErrors };
  return {
    error: (field) => errorAt(field, clientErrors, fromServer),
    invalid: (attempted && !parsed.success) || Object.keys(fromServer).length > 0,
    submit(event) {
      event.preventDefault();
      setAttempted(true);
      if (parsed.success) return mutation.mutate(parsed.data);
      // The server's verdict on an earlier attempt no longer applies.
      mutation.reset();
      focusFirstInvalid();
    },
  };
}

/**
 * A form saving a clause's content as a draft: its heading (focused when it opens, so a screen reader
 * says where it is), the fields of `children`, the content's editor, what changes, and what went wrong.
 */
export function ContentForm({
  texts,
  form,
  check,
  failure,
  pending,
  onCancel,
  children,
}: {
  texts: {
    heading: string;
    intro: string;
    comment: string;
    commentPlaceholder: string;
    submit: string;
    cancel: string;
  };
  form: ContentFormState;
  check: ContentCheck;
  /** Why saving failed, where no field says it; null when it did not. */
  failure: unknown;
  pending: boolean;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <form ref={form.container} onSubmit={check.submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h3" id={headingId} ref={heading} tabIndex={-1}>
            {texts.heading}
          </Title>
          <Text size="sm" c="dimmed">
            {texts.intro}
          </Text>
          {children}
          <ContentEditor
            value={form.content}
            onChange={form.setContent}
            error={(field) => check.error(`content.${field}`)}
          />
          <TextInput
            label={texts.comment}
            placeholder={texts.commentPlaceholder}
            required
            maxLength={500}
            value={form.comment}
            onChange={(event) => form.setComment(event.currentTarget.value)}
            error={check.error('comment')}
          />
          <div aria-live="polite">
            {check.invalid && (
              <Text c="red.8" size="sm">
                {editorTexts.validation.fixFields}
              </Text>
            )}
            {failure !== null && <Alert color="red">{errorMessage(failure)}</Alert>}
          </div>
          <Group>
            <Button type="submit" loading={pending}>
              {texts.submit}
            </Button>
            <Button variant="default" onClick={onCancel}>
              {texts.cancel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
