import './reviews.css';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  formatDateTime,
  REVIEW_COMMENT_MAX,
  type Review,
  type ReviewComment,
  staffCommentSchema,
} from '@vertragsgenerator/domain';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { addComment } from './api';
import { useFocusReturn } from './focus-return';
import { type ReviewCache, reloadOnConflict } from './review-cache';
import { reviewTexts } from './texts';

const t = reviewTexts.comments;

type Visibility = ReviewComment['visibility'];

interface Thread {
  root: ReviewComment;
  replies: ReviewComment[];
}

const byTime = (a: ReviewComment, b: ReviewComment) => a.createdAt.localeCompare(b.createdAt);

/** The comments as threads: each one that answers another goes under the comment its chain starts with. */
export function threadsOf(comments: readonly ReviewComment[]): Thread[] {
  const byId = new Map(comments.map((comment) => [comment.id, comment]));
  const rootOf = (comment: ReviewComment): ReviewComment => {
    let current = comment;
    // Bounded: a chain that loops (it should not) ends where it started.
    for (let steps = 0; steps < comments.length && current.parentId !== null; steps++) {
      const parent = byId.get(current.parentId);
      if (!parent) break;
      current = parent;
    }
    return current;
  };
  const threads = new Map<string, Thread>();
  for (const comment of [...comments].sort(byTime)) {
    const root = rootOf(comment);
    const thread = threads.get(root.id) ?? { root, replies: [] };
    if (comment !== root) thread.replies.push(comment);
    threads.set(root.id, thread);
  }
  return [...threads.values()];
}

/**
 * The negotiation's comments as threads — the counterparty's and the company's, internal notes marked —
 * with a reply to each thread and a new comment below; closed once the negotiation has ended.
 */
export function Comments({ review, cache }: { review: Review; cache: ReviewCache }) {
  const headingId = useId();
  const threads = threadsOf(review.comments);
  const writable = review.state === 'open';
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={3} id={headingId}>
        {t.heading}
      </Title>
      {threads.length === 0 ? (
        <Text size="sm">{t.none}</Text>
      ) : (
        <ul className="review-list" aria-label={t.threads}>
          {threads.map((thread) => (
            <li key={thread.root.id}>
              <ThreadView review={review} thread={thread} writable={writable} cache={cache} />
            </li>
          ))}
        </ul>
      )}
      {writable ? <NewComment review={review} cache={cache} /> : <Text size="sm">{t.closed}</Text>}
    </Stack>
  );
}

function ThreadView({
  review,
  thread,
  writable,
  cache,
}: {
  review: Review;
  thread: Thread;
  writable: boolean;
  cache: ReviewCache;
}) {
  const [replying, setReplying] = useState(false);
  const replyButton = useFocusReturn<HTMLButtonElement>(replying);
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <CommentView comment={thread.root} />
        {thread.replies.length > 0 && (
          <ul className="review-replies">
            {thread.replies.map((reply) => (
              <li key={reply.id}>
                <CommentView comment={reply} />
              </li>
            ))}
          </ul>
        )}
        {writable &&
          (replying ? (
            <ReplyForm review={review} thread={thread} cache={cache} onDone={() => setReplying(false)} />
          ) : (
            <Group>
              <Button
                ref={replyButton}
                size="xs"
                variant="default"
                aria-label={t.replyTo(thread.root.author.name)}
                onClick={() => setReplying(true)}
              >
                {t.reply}
              </Button>
            </Group>
          ))}
      </Stack>
    </Paper>
  );
}

function CommentView({ comment }: { comment: ReviewComment }) {
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {comment.author.name}
        </Text>
        <Badge variant="outline" color={comment.author.side === 'company' ? 'blue' : 'grape'}>
          {t.side[comment.author.side]}
        </Badge>
        {comment.visibility === 'internal' && (
          <Badge variant="filled" color="orange.9">
            {t.internal}
          </Badge>
        )}
        <Text size="sm" c="dimmed">
          {formatDateTime(new Date(comment.createdAt))} · {t.round(comment.round)}
        </Text>
      </Group>
      {comment.quote && (
        <blockquote className="review-quote">
          <Text size="sm">
            <Text span size="sm" fw={600} fs="normal">
              {t.quote}:
            </Text>{' '}
            „{comment.quote}“
          </Text>
        </blockquote>
      )}
      <Text size="sm" className="review-text">
        {comment.text}
      </Text>
    </Stack>
  );
}

/** The choice between a comment the counterparty reads and a note only the company sees. */
function VisibilityChoice({ value, onChange }: { value: Visibility; onChange: (value: Visibility) => void }) {
  return (
    <Radio.Group label={t.visibility} value={value} onChange={(next) => onChange(next as Visibility)}>
      <Group gap="md" mt={4}>
        <Radio value="external" label={t.external} />
        <Radio value="internal" label={t.internalOption} />
      </Group>
    </Radio.Group>
  );
}

interface CommentInput {
  text: string;
  visibility: Visibility;
  parentId: string | null;
  quote: string;
}

/** Sending one comment: the browser's check first, then the server's, each at the field it is about. */
function useCommentSending(review: Review, cache: ReviewCache, onSent: () => void) {
  const [attempted, setAttempted] = useState(false);
  const sending = useSingleMutation({
    mutationFn: (input: CommentInput) => reloadOnConflict(addComment(review.id, input), cache),
    onSuccess: (updated) => {
      cache.set(updated);
      notifications.show({ color: 'green', message: t.saved });
      onSent();
    },
  });
  return {
    sending,
    /** The message about `field` (`text` or `quote`), once the person tried to send. */
    errorFor(input: CommentInput, field: 'text' | 'quote'): string | undefined {
      if (attempted) {
        const parsed = staffCommentSchema.safeParse(input);
        const issue = parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === field);
        if (issue) return issue.message;
      }
      return sending.error instanceof ApiRequestError ? sending.error.fields[field]?.[0] : undefined;
    },
    submit(event: FormEvent, input: CommentInput) {
      event.preventDefault();
      setAttempted(true);
      if (staffCommentSchema.safeParse(input).success) sending.mutate(input);
      else sending.reset();
    },
  };
}

function ReplyForm({
  review,
  thread,
  cache,
  onDone,
}: {
  review: Review;
  thread: Thread;
  cache: ReviewCache;
  onDone: () => void;
}) {
  // A reply to what the counterparty can read goes to them by default; an internal note stays internal.
  const internalThread = thread.root.visibility === 'internal';
  const [text, setText] = useState('');
  const [visibility, setVisibility] = useState<Visibility>(internalThread ? 'internal' : 'external');
  // Threads are flat: every reply answers the comment the thread starts with.
  const input: CommentInput = { text, visibility, parentId: thread.root.id, quote: '' };
  const field = useRef<HTMLTextAreaElement>(null);
  // The form opens on the person's click: the field to write in is where the focus belongs.
  useEffect(() => field.current?.focus(), []);
  const { sending, errorFor, submit } = useCommentSending(review, cache, onDone);
  const textError = errorFor(input, 'text');
  return (
    <form
      onSubmit={(event) => submit(event, input)}
      noValidate
      aria-label={t.replyForm(thread.root.author.name)}
    >
      <Stack gap="xs">
        <Textarea
          label={t.replyLabel}
          rows={2}
          maxLength={REVIEW_COMMENT_MAX}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={textError}
          required
          ref={field}
        />
        {internalThread ? (
          <Text size="sm" c="dimmed">
            {t.replyInternalOnly}
          </Text>
        ) : (
          <VisibilityChoice value={visibility} onChange={setVisibility} />
        )}
        {sending.isError && !textError && (
          <Alert color="red" role="alert">
            {errorMessage(sending.error)}
          </Alert>
        )}
        <Group gap="xs">
          <Button type="submit" size="xs" loading={sending.isPending}>
            {t.send}
          </Button>
          <Button size="xs" variant="default" onClick={onDone} disabled={sending.isPending}>
            {t.cancel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function NewComment({ review, cache }: { review: Review; cache: ReviewCache }) {
  const headingId = useId();
  // A fresh form after each comment: the key remounts it, with its own single send.
  const [generation, setGeneration] = useState(0);
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={4} id={headingId}>
        {t.newHeading}
      </Title>
      <NewCommentForm
        key={generation}
        review={review}
        cache={cache}
        onSent={() => setGeneration((count) => count + 1)}
      />
    </Stack>
  );
}

function NewCommentForm({
  review,
  cache,
  onSent,
}: {
  review: Review;
  cache: ReviewCache;
  onSent: () => void;
}) {
  const [text, setText] = useState('');
  const [quote, setQuote] = useState('');
  // A new comment is a note for the company unless the person chooses the counterparty.
  const [visibility, setVisibility] = useState<Visibility>('internal');
  const input: CommentInput = { text, visibility, parentId: null, quote };
  const { sending, errorFor, submit } = useCommentSending(review, cache, onSent);
  const textError = errorFor(input, 'text');
  const quoteError = errorFor(input, 'quote');
  return (
    <form onSubmit={(event) => submit(event, input)} noValidate>
      <Stack gap="xs">
        <Textarea
          label={t.text}
          rows={3}
          maxLength={REVIEW_COMMENT_MAX}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={textError}
          required
        />
        <TextInput
          label={t.quoteLabel}
          description={t.quoteHint}
          maxLength={1000}
          value={quote}
          onChange={(event) => setQuote(event.currentTarget.value)}
          error={quoteError}
        />
        <VisibilityChoice value={visibility} onChange={setVisibility} />
        {sending.isError && !textError && !quoteError && (
          <Alert color="red" role="alert">
            {errorMessage(sending.error)}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={sending.isPending}>
            {t.add}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
