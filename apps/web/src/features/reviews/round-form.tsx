import {
  ActionIcon,
  Alert,
  Button,
  Fieldset,
  Group,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  REVIEW_MAX_REVIEWERS,
  type Review,
  type ReviewerInput,
  type StartReviewRequest,
  startReviewSchema,
} from '@vertragsgenerator/domain';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { z } from 'zod';
import { useFirstInvalidFocus } from '@/components/form';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { reviewTexts } from './texts';

const t = reviewTexts.form;

/** Messages by field, keyed like a 400's `fields` (`reviewers.0.email`): the browser's and the server's at one place. */
type FieldErrors = Readonly<Record<string, readonly string[]>>;
const NO_ERRORS: FieldErrors = {};

function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.');
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  return errors;
}

/** Today in the browser's calendar, as a date field writes it. */
function todayIso(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

interface ReviewerRow extends ReviewerInput {
  /** Stable across removals, so that React keeps each row's inputs. */
  key: number;
}

export interface RoundFormProps {
  /** `start`: the first round of a new negotiation; `next`: the round after the last returned one. */
  kind: 'start' | 'next';
  /** The number the round will have, for the heading. */
  round: number;
  /** The people the form starts with: the envelope draft's for the first round, the last round's for the next. */
  reviewers: readonly ReviewerInput[];
  send: (request: StartReviewRequest) => Promise<Review>;
  onSent: (review: Review) => void;
  onCancel: () => void;
  /** Unsaved changes in the editor: the round would go out without them. */
  dirty: boolean;
}

/**
 * The people of the counterparty (name and e-mail, up to five), a message and the due date of a round;
 * nothing is marked before the first attempt to send, then the browser's and the server's verdicts
 * stand at their fields and the focus goes to the first of them.
 */
export function RoundForm({ kind, round, reviewers, send, onSent, onCancel, dirty }: RoundFormProps) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // The form opens on a click: its heading takes the focus, so a screen reader says where it is.
  useEffect(() => heading.current?.focus(), []);
  const nextKey = useRef(0);
  const row = (reviewer: ReviewerInput): ReviewerRow => ({ ...reviewer, key: nextKey.current++ });
  const [rows, setRows] = useState<ReviewerRow[]>(() =>
    reviewers.length > 0 ? reviewers.map(row) : [row({ name: '', email: '' })],
  );
  const [message, setMessage] = useState('');
  const [dueDate, setDueDate] = useState('');
  const [attempted, setAttempted] = useState(false);
  const { container, focusFirstInvalid } = useFirstInvalidFocus<HTMLFormElement>();
  const sending = useSingleMutation({
    mutationFn: send,
    onSuccess: onSent,
    onError: () => focusFirstInvalid(),
  });

  const request: StartReviewRequest = {
    reviewers: rows.map(({ name, email }) => ({ name, email })),
    message,
    dueDate,
  };
  const parsed = startReviewSchema.safeParse(request);
  const clientErrors: FieldErrors = !attempted
    ? NO_ERRORS
    : parsed.success
      ? parsed.data.dueDate < todayIso()
        ? { dueDate: [t.pastDue] }
        : NO_ERRORS
      : fieldErrorsOf(parsed.error);
  const serverErrors = sending.error instanceof ApiRequestError ? sending.error.fields : NO_ERRORS;
  const errorFor = (field: string) => clientErrors[field]?.[0] ?? serverErrors[field]?.[0];
  const invalid = Object.keys(clientErrors).length > 0;

  function update(key: number, patch: Partial<ReviewerInput>) {
    setRows((current) =>
      current.map((candidate) => (candidate.key === key ? { ...candidate, ...patch } : candidate)),
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    if (parsed.success && parsed.data.dueDate >= todayIso()) {
      sending.mutate(parsed.data);
    } else {
      // The server's verdict on an earlier attempt no longer applies.
      sending.reset();
      focusFirstInvalid();
    }
  }

  return (
    <form ref={container} onSubmit={submit} noValidate aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={3} id={headingId} ref={heading} tabIndex={-1}>
          {kind === 'start' ? t.startTitle : t.nextTitle(round)}
        </Title>
        {dirty && (
          <Alert color="yellow" p="xs">
            <Text size="sm">{reviewTexts.saveFirst}</Text>
          </Alert>
        )}
        <Fieldset legend={t.reviewers} variant="unstyled">
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t.reviewersHint(REVIEW_MAX_REVIEWERS)}
            </Text>
            {rows.map((reviewer, index) => (
              <Fieldset key={reviewer.key} legend={t.reviewer(index + 1)}>
                <Group align="flex-start" wrap="wrap">
                  <TextInput
                    label={t.name}
                    required
                    // Both fields of a row are required: the row does without the asterisks.
                    withAsterisk={false}
                    autoComplete="off"
                    value={reviewer.name}
                    onChange={(event) => update(reviewer.key, { name: event.currentTarget.value })}
                    error={errorFor(`reviewers.${index}.name`)}
                    style={{ flex: 1 }}
                    miw={180}
                  />
                  <TextInput
                    label={t.email}
                    type="email"
                    required
                    withAsterisk={false}
                    autoComplete="off"
                    value={reviewer.email}
                    onChange={(event) => update(reviewer.key, { email: event.currentTarget.value })}
                    error={errorFor(`reviewers.${index}.email`)}
                    style={{ flex: 1 }}
                    miw={220}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red.8"
                    size="lg"
                    mt={28}
                    disabled={rows.length === 1}
                    onClick={() =>
                      setRows((current) => current.filter((other) => other.key !== reviewer.key))
                    }
                    aria-label={t.remove(index + 1)}
                    title={t.remove(index + 1)}
                  >
                    ×
                  </ActionIcon>
                </Group>
              </Fieldset>
            ))}
            {errorFor('reviewers') && (
              <Text c="red.8" size="sm" role="alert">
                {errorFor('reviewers')}
              </Text>
            )}
            <Group>
              <Button
                variant="light"
                onClick={() => setRows((current) => [...current, row({ name: '', email: '' })])}
                disabled={rows.length >= REVIEW_MAX_REVIEWERS}
              >
                {t.add}
              </Button>
            </Group>
          </Stack>
        </Fieldset>
        <Textarea
          label={t.message}
          description={t.messageHint}
          rows={3}
          maxLength={2000}
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
          error={errorFor('message')}
        />
        <TextInput
          type="date"
          label={t.dueDate}
          required
          min={todayIso()}
          value={dueDate}
          onChange={(event) => setDueDate(event.currentTarget.value)}
          error={errorFor('dueDate')}
          w={220}
        />
        {invalid && (
          <Alert color="red" role="alert">
            {t.fixFields}
          </Alert>
        )}
        {sending.isError && !invalid && (
          <Alert color="red" role="alert">
            {errorMessage(sending.error)}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={sending.isPending} disabled={dirty}>
            {kind === 'start' ? t.submitStart : t.submitNext}
          </Button>
          <Button variant="default" onClick={onCancel} disabled={sending.isPending}>
            {t.cancel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
