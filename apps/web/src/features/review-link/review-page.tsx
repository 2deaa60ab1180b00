import {
  Alert,
  Badge,
  Box,
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReviewerView } from '@vertragsgenerator/domain';
import {
  type ReactNode,
  type RefObject,
  useCallback,
  useDeferredValue,
  useEffect,
  useRef,
  useState,
} from 'react';
import { EmailCodeStep } from '@/components/email-code-step';
import { FullPageMessage } from '@/components/full-page-message';
import { SectionLoader } from '@/components/section-loader';
import { ApiRequestError } from '@/lib/api';
import { EarlierRounds } from './earlier-rounds';
import {
  isLinkError,
  isRoundReturned,
  requestReviewCode,
  reviewQueryOptions,
  verifyReviewCode,
} from './review-api';
import { ReviewComments } from './review-comments';
import { ReviewDocument } from './review-document';
import { ReviewReturn } from './review-return';
import type { SuggestingEditor } from './suggesting-editor';
import { type ReviewTexts, reviewTexts } from './texts';

/** Until the view says the contract's language, and on a page about a broken link: German. */
const FIRST_TEXTS = reviewTexts.de;

/**
 * The public page behind a counterparty's e-mail link (`/vertragspruefung#<token>`): no sign-in and no app
 * shell. The token stays in the fragment, which the browser never sends to a server; the page's own entry
 * (app/review) reads it from there. The reviewer confirms a code, reads the contract, comments on it,
 * suggests changes (in the browser or in their own Word file) and sends the round back.
 */
export function ReviewPage({ token }: { token: string }) {
  if (!token) {
    return (
      <PageFrame texts={FIRST_TEXTS}>
        <LinkProblem texts={FIRST_TEXTS} message={FIRST_TEXTS.missingToken} />
      </PageFrame>
    );
  }
  return <Review token={token} />;
}

function Review({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const options = reviewQueryOptions(token);
  const view = useQuery(options);
  // The page the view brings is built in slices (a transition), not in one piece: on a phone, one piece
  // holds up everything else for a good part of a second.
  const data = useDeferredValue(view.data);
  // A link can stop working while the page is open (the company withdraws it); the answers of the
  // page's calls then say so, and the page shows it as it would on opening the link.
  const [closedLink, setClosedLink] = useState<ApiRequestError | null>(null);
  const linkError = closedLink ?? (isLinkError(view.error) ? view.error : null);
  const texts = data ? reviewTexts[data.language] : FIRST_TEXTS;
  // A page about a broken link speaks German, as the server's message does.
  const pageTexts = linkError ? FIRST_TEXTS : texts;

  const refetch = view.refetch;
  const refresh = useCallback(() => void refetch(), [refetch]);
  const answered = useCallback(
    (next: ReviewerView) => queryClient.setQueryData(reviewQueryOptions(token).queryKey, next),
    [queryClient, token],
  );
  const onFailure = useCallback(
    (error: unknown): boolean => {
      if (isLinkError(error)) {
        setClosedLink(error);
        return true;
      }
      // Sent back meanwhile, or the code is wanted again: the view says what the page may still offer.
      if (
        isRoundReturned(error) ||
        (error instanceof ApiRequestError && error.code === 'verification_required')
      ) {
        refresh();
        return true;
      }
      return false;
    },
    [refresh],
  );

  // The tab's name and the document's language (review.html says German) follow the contract's.
  useEffect(() => {
    const before = { title: document.title, lang: document.documentElement.lang };
    document.title = `${pageTexts.pageTitle} – ${pageTexts.appTitle}`;
    document.documentElement.lang = pageTexts.lang;
    return () => {
      document.title = before.title;
      document.documentElement.lang = before.lang;
    };
  }, [pageTexts]);

  let content: ReactNode;
  if (linkError) {
    content = <LinkProblem texts={FIRST_TEXTS} message={linkError.message} />;
  } else if (data === undefined) {
    content = view.isError ? (
      <LoadProblem
        texts={FIRST_TEXTS}
        message={problemTextIn(FIRST_TEXTS)(view.error)}
        onRetry={() => void view.refetch()}
      />
    ) : (
      <SectionLoader label={FIRST_TEXTS.loading} />
    );
  } else if (data.verification.required && !data.verification.verified) {
    content = (
      <EmailCodeStep
        title={data.fileName}
        verification={data.verification}
        texts={texts.code}
        locale={texts.locale}
        requestCode={() => requestReviewCode(token)}
        verifyCode={(code) => verifyReviewCode(token, code)}
        onAnswered={answered}
        onRefresh={refresh}
        isLinkError={isLinkError}
        onLinkClosed={setClosedLink}
        problemText={problemTextIn(texts)}
      />
    );
  } else {
    content = (
      <ReviewWorkspace token={token} view={data} texts={texts} onAnswered={answered} onFailure={onFailure} />
    );
  }
  return <PageFrame texts={pageTexts}>{content}</PageFrame>;
}

interface WorkspaceProps {
  token: string;
  view: ReviewerView;
  texts: ReviewTexts;
  onAnswered: (view: ReviewerView) => void;
  onFailure: (error: unknown) => boolean;
}

/** Everything behind the code: the contract, the comments, the earlier rounds and the return. */
function ReviewWorkspace({ token, view, texts, onAnswered, onFailure }: WorkspaceProps) {
  const [suggesting, setSuggesting] = useState(false);
  const [editor, setEditor] = useState<SuggestingEditor | null>(null);
  const [changed, setChanged] = useState(false);
  const area = useRef<HTMLDivElement>(null);
  const selected = useRememberedSelection(area);
  const open = view.returnedAt === null;
  const problemText = problemTextIn(texts);
  const shared = { token, view, texts, onAnswered, onFailure, problemText };

  // Sent back from this page: the return's question is gone, and the focus goes to what took its place.
  const returned = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) returned.current?.focus();
    wasOpen.current = open;
  }, [open]);

  // superdoc's selection where it shows the contract; the first view's (the browser's) otherwise.
  const takeQuote = () => editor?.selectedText() || selected.current;

  return (
    <Stack gap="lg">
      <ReviewHeader view={view} texts={texts} />
      {view.returnedAt && <Returned ref={returned} returnedAt={view.returnedAt} texts={texts} />}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="xl" verticalSpacing="xl">
        <ReviewDocument
          token={token}
          view={view}
          texts={texts}
          problemText={problemText}
          onFailure={onFailure}
          suggesting={suggesting}
          onSuggest={() => {
            setChanged(false);
            setSuggesting(true);
          }}
          onSuggestFailed={() => setSuggesting(false)}
          onEditor={setEditor}
          onChange={() => setChanged(true)}
          areaRef={area}
        />
        <ReviewComments {...shared} takeQuote={takeQuote} />
      </SimpleGrid>
      <EarlierRounds earlier={view.earlier} texts={texts} />
      {open && (
        <ReviewReturn
          {...shared}
          editor={{
            changed: editor !== null && changed,
            opening: suggesting && editor === null,
            exportDocx: editor ? () => editor.exportDocx() : undefined,
          }}
        />
      )}
    </Stack>
  );
}

/**
 * The text last selected in the contract's first view. Remembered as it is selected, because tapping a
 * button on a phone (and in some browsers clicking one) clears the selection before the button acts; a
 * selection elsewhere on the page leaves it, a click into the contract that selects nothing clears it.
 */
function useRememberedSelection(area: RefObject<HTMLDivElement | null>): RefObject<string> {
  const remembered = useRef('');
  useEffect(() => {
    const onSelectionChange = () => {
      const selection = document.getSelection();
      const element = area.current;
      if (!selection || !element || selection.rangeCount === 0) return;
      if (!element.contains(selection.getRangeAt(0).commonAncestorContainer)) return;
      remembered.current = selection.toString().replace(/\s+/g, ' ').trim();
    };
    document.addEventListener('selectionchange', onSelectionChange);
    return () => document.removeEventListener('selectionchange', onSelectionChange);
  }, [area]);
  return remembered;
}

function ReviewHeader({ view, texts }: { view: ReviewerView; texts: ReviewTexts }) {
  return (
    <Stack>
      {/* At a page heading's size, a long file name would fill a phone's first screen. */}
      <Title order={1} fz={{ base: 'h3', sm: 'h1' }} style={{ overflowWrap: 'anywhere' }}>
        {view.fileName}
      </Title>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Group gap="xs" justify="space-between" wrap="wrap">
            <Text>{texts.intro(view.company)}</Text>
            {view.round > 1 && <Badge variant="light">{texts.round(view.round)}</Badge>}
          </Group>
          <Text style={{ overflowWrap: 'anywhere' }}>
            <Text span fw={600}>
              {texts.sentBy}:
            </Text>{' '}
            {view.sender.name} ({view.sender.email})
          </Text>
          <Text>
            <Text span fw={600}>
              {texts.dueDate}:
            </Text>{' '}
            <time dateTime={view.dueDate}>{formatDay(view.dueDate, texts.locale)}</time>
          </Text>
          {view.message && (
            <>
              <Text fw={600}>{texts.message}</Text>
              <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{view.message}</Text>
            </>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

function Returned({
  ref,
  returnedAt,
  texts,
}: {
  ref: RefObject<HTMLDivElement | null>;
  returnedAt: string;
  texts: ReviewTexts;
}) {
  const when = new Intl.DateTimeFormat(texts.locale, {
    timeZone: 'Europe/Berlin',
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(new Date(returnedAt));
  return (
    <Alert ref={ref} tabIndex={-1} color="green" title={texts.returnedAt(when)} role="status">
      {texts.returnedText}
    </Alert>
  );
}

/** A day of the calendar (`2026-07-15`) as the reader writes it; as it is where it is no such day. */
function formatDay(day: string, locale: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', dateStyle: 'long' }).format(date);
}

/**
 * Words a failed call for the reader: the page's own texts where the client made the error (no server,
 * an odd answer) or where it knows the code in the reader's language; otherwise the server's own words.
 */
function problemTextIn(texts: ReviewTexts): (error: unknown) => string {
  return (error) => {
    if (!(error instanceof ApiRequestError)) return texts.unexpected;
    if (error.code === 'network_error') return texts.network;
    if (error.code === 'invalid_response' || error.code.startsWith('http_')) return texts.unexpected;
    return texts.serverErrors[error.code] ?? error.message;
  };
}

function PageFrame({ texts, children }: { texts: ReviewTexts; children: ReactNode }) {
  return (
    // The contract's language for everything on the page, so that a screen reader reads it as written.
    <Box lang={texts.lang}>
      <Container component="main" size="xl" py="xl">
        <Stack>
          <Text fw={700} size="lg">
            {texts.appTitle}
          </Text>
          {children}
        </Stack>
      </Container>
    </Box>
  );
}

function LinkProblem({ texts, message }: { texts: ReviewTexts; message: string }) {
  return (
    <FullPageMessage title={texts.linkErrorTitle}>
      <Text role="alert">{message}</Text>
    </FullPageMessage>
  );
}

function LoadProblem({
  texts,
  message,
  onRetry,
}: {
  texts: ReviewTexts;
  message: string;
  onRetry: () => void;
}) {
  return (
    <FullPageMessage title={texts.loadFailedTitle}>
      <Text role="alert">{message}</Text>
      <Group>
        <Button onClick={onRetry}>{texts.retry}</Button>
      </Group>
    </FullPageMessage>
  );
}
