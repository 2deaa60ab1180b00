import { Alert, Badge, Box, Button, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import {
  REVIEW_COMMENT_MAX,
  type ReviewComment,
  type ReviewerCommentRequest,
  type ReviewerView,
} from '@vertragsgenerator/domain';
import { type FormEvent, useId, useRef, useState } from 'react';
import { postReviewComment } from './review-api';
import type { ReviewTexts } from './texts';

/** The longest passage a comment may quote (reviewerCommentSchema's `quote`). */
const QUOTE_MAX = 1000;

export interface ReviewCommentsProps {
  token: string;
  view: ReviewerView;
  texts: ReviewTexts;
  /** The text the reviewer has selected in the contract, for a comment's passage; empty when none. */
  takeQuote: () => string;
  onAnswered: (view: ReviewerView) => void;
  /** A failed call: true where the page answers it (the link closed, the round sent back). */
  onFailure: (error: unknown) => boolean;
  problemText: (error: unknown) => string;
}

interface Thread {
  root: ReviewComment;
  replies: ReviewComment[];
}

/**
 * The comments as threads: each comment that answers none opens one, and every answer below it, however
 * deep it answers, in the order written (a phone has no room for deeper indents). A comment whose parent
 * the reviewer cannot see (an internal one) opens a thread of its own.
 */
export function threadsOf(comments: readonly ReviewComment[]): Thread[] {
  const byId = new Map(comments.map((comment) => [comment.id, comment]));
  const rootOf = (comment: ReviewComment): ReviewComment => {
    const seen = new Set<string>();
    let current = comment;
    while (current.parentId !== null && !seen.has(current.id)) {
      seen.add(current.id);
      const parent = byId.get(current.parentId);
      if (!parent) break;
      current = parent;
    }
    return current;
  };
  const byTime = (a: ReviewComment, b: ReviewComment) => a.createdAt.localeCompare(b.createdAt);
  const threads = new Map<string, Thread>();
  for (const comment of [...comments].sort(byTime)) {
    const root = rootOf(comment);
    const thread = threads.get(root.id) ?? { root, replies: [] };
    if (comment !== root) thread.replies.push(comment);
    threads.set(root.id, thread);
  }
  return [...threads.values()];
}

/** The comments of every round with the company's replies, a form for a new one and a reply to each. */
export function ReviewComments({
  token,
  view,
  texts,
  takeQuote,
  onAnswered,
  onFailure,
  problemText,
}: ReviewCommentsProps) {
  const open = view.returnedAt === null;
  const threads = threadsOf(view.comments);
  const when = new Intl.DateTimeFormat(texts.locale, {
    timeZone: 'Europe/Berlin',
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  const authorOf = (comment: ReviewComment) =>
    comment.author.side === 'company' ? `${comment.author.name} (${view.company})` : comment.author.name;
  const shared = { token, texts, onAnswered, onFailure, problemText };

  return (
    <Stack component="section" aria-labelledby="review-comments-heading">
      <Title order={2} id="review-comments-heading" fz={{ base: 'h4', sm: 'h2' }}>
        {texts.commentsHeading}
      </Title>
      {threads.length === 0 ? (
        <Text c="dimmed">{texts.noComments}</Text>
      ) : (
        <Stack component="ul" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
          {threads.map(({ root, replies }) => (
            <Box component="li" key={root.id}>
              <Stack
                gap="xs"
                p="sm"
                style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 8 }}
              >
                <CommentBody comment={root} author={authorOf(root)} when={when} view={view} texts={texts} />
                {replies.length > 0 && (
                  <Stack
                    component="ul"
                    gap="xs"
                    m={0}
                    pl="sm"
                    aria-label={texts.repliesOf(authorOf(root))}
                    style={{ listStyle: 'none', borderLeft: '3px solid var(--mantine-color-gray-4)' }}
                  >
                    {replies.map((reply) => (
                      <Box component="li" key={reply.id}>
                        <CommentBody
                          comment={reply}
                          author={authorOf(reply)}
                          when={when}
                          view={view}
                          texts={texts}
                        />
                      </Box>
                    ))}
                  </Stack>
                )}
                {open && <ReplyForm {...shared} parentId={root.id} author={authorOf(root)} />}
              </Stack>
            </Box>
          ))}
        </Stack>
      )}
      {open && <NewCommentForm {...shared} takeQuote={takeQuote} />}
    </Stack>
  );
}

function CommentBody({
  comment,
  author,
  when,
  view,
  texts,
}: {
  comment: ReviewComment;
  author: string;
  when: Intl.DateTimeFormat;
  view: ReviewerView;
  texts: ReviewTexts;
}) {
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="wrap">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {author}
        </Text>
        <Text size="sm" c="dimmed" component="time" dateTime={comment.createdAt}>
          {when.format(new Date(comment.createdAt))}
        </Text>
        {comment.round !== view.round && (
          <Badge variant="light" color="gray">
            {texts.inRound(comment.round)}
          </Badge>
        )}
      </Group>
      {comment.quote && (
        <Box
          component="blockquote"
          m={0}
          px="sm"
          py={4}
          style={{
            borderLeft: '3px solid var(--mantine-color-blue-6)',
            background: 'var(--mantine-color-gray-0)',
          }}
        >
          <Text size="xs" c="dimmed" component="span" display="block">
            {texts.quoted}
          </Text>
          <Text size="sm" fs="italic" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {comment.quote}
          </Text>
        </Box>
      )}
      <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{comment.text}</Text>
    </Stack>
  );
}

interface FormProps {
  token: string;
  texts: ReviewTexts;
  onAnswered: (view: ReviewerView) => void;
  onFailure: (error: unknown) => boolean;
  problemText: (error: unknown) => string;
}

/** Posts a comment; answers the form's own problem, or none where the page answers it. */
function useCommentPost({ token, onAnswered, onFailure, problemText }: FormProps, onPosted: () => void) {
  const [problem, setProblem] = useState<string>();
  const post = useMutation({
    mutationFn: (request: ReviewerCommentRequest) => postReviewComment(token, request),
    onMutate: () => setProblem(undefined),
    onSuccess: (next) => {
      onPosted();
      onAnswered(next);
    },
    onError: (error) => {
      if (!onFailure(error)) setProblem(problemText(error));
    },
  });
  return { post, problem };
}

/** The comment's own check, in the page's language (the domain's messages are German only). */
function commentProblem(text: string, texts: ReviewTexts): string | undefined {
  if (text.trim() === '') return texts.commentEmpty;
  if (text.trim().length > REVIEW_COMMENT_MAX) return texts.commentTooLong(REVIEW_COMMENT_MAX);
  return undefined;
}

function NewCommentForm(props: FormProps & { takeQuote: () => string }) {
  const { texts, takeQuote } = props;
  const [text, setText] = useState('');
  const [quote, setQuote] = useState('');
  const [textError, setTextError] = useState<string>();
  const [selectionStatus, setSelectionStatus] = useState('');
  const [posted, setPosted] = useState(false);
  const textInput = useRef<HTMLTextAreaElement>(null);
  const { post, problem } = useCommentPost(props, () => {
    setText('');
    setQuote('');
    setSelectionStatus('');
    setPosted(true);
  });
  const quoteError = quote.trim().length > QUOTE_MAX ? texts.quoteTooLong(QUOTE_MAX) : undefined;

  function takeSelection() {
    const selected = takeQuote();
    if (selected === '') {
      setSelectionStatus(texts.noSelection);
      return;
    }
    setQuote(selected);
    setSelectionStatus(texts.selectionTaken);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setPosted(false);
    const error = commentProblem(text, texts);
    setTextError(error);
    if (error || quoteError) {
      textInput.current?.focus();
      return;
    }
    const trimmedQuote = quote.trim();
    post.mutate({ text: text.trim(), ...(trimmedQuote && { quote: trimmedQuote }) });
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="review-new-comment">
      <Stack gap="sm">
        <Text id="review-new-comment" fw={600}>
          {texts.newComment}
        </Text>
        <Textarea
          label={texts.quoteLabel}
          description={texts.quoteDescription}
          rows={2}
          resize="vertical"
          value={quote}
          onChange={(event) => setQuote(event.currentTarget.value)}
          error={quoteError && <span role="alert">{quoteError}</span>}
        />
        <Group gap="sm">
          <Button variant="default" size="sm" onClick={takeSelection}>
            {texts.takeSelection}
          </Button>
          <Text size="sm" role="status">
            {selectionStatus}
          </Text>
        </Group>
        <Textarea
          ref={textInput}
          label={texts.commentLabel}
          required
          rows={3}
          resize="vertical"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={textError && <span role="alert">{textError}</span>}
        />
        {problem && <Alert color="red">{problem}</Alert>}
        <Group justify="space-between" gap="sm">
          <Text size="sm" role="status">
            {posted ? texts.commentPosted : ''}
          </Text>
          <Button type="submit" loading={post.isPending}>
            {texts.postComment}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ReplyForm(props: FormProps & { parentId: string; author: string }) {
  const { texts, parentId, author } = props;
  const [opened, setOpened] = useState(false);
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string>();
  const textInput = useRef<HTMLTextAreaElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const labelId = useId();
  const close = () => {
    setOpened(false);
    setText('');
    setTextError(undefined);
    // The button that opened the form takes the focus back, rather than the page's top.
    requestAnimationFrame(() => opener.current?.focus());
  };
  const { post, problem } = useCommentPost(props, close);

  if (!opened) {
    return (
      <Group>
        <Button
          ref={opener}
          variant="subtle"
          size="compact-sm"
          aria-label={texts.replyTo(author)}
          onClick={() => {
            setOpened(true);
            requestAnimationFrame(() => textInput.current?.focus());
          }}
        >
          {texts.reply}
        </Button>
      </Group>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const error = commentProblem(text, texts);
    setTextError(error);
    if (error) {
      textInput.current?.focus();
      return;
    }
    post.mutate({ text: text.trim(), parentId });
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby={labelId}>
      <Stack gap="xs">
        <Text id={labelId} size="sm" fw={600}>
          {texts.replyTo(author)}
        </Text>
        <Textarea
          ref={textInput}
          label={texts.replyLabel}
          required
          rows={2}
          resize="vertical"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={textError && <span role="alert">{textError}</span>}
        />
        {problem && <Alert color="red">{problem}</Alert>}
        <Group gap="sm">
          <Button type="submit" size="sm" loading={post.isPending}>
            {texts.postReply}
          </Button>
          <Button variant="default" size="sm" onClick={close} disabled={post.isPending}>
            {texts.cancel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
