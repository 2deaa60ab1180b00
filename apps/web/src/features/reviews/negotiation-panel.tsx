import { Alert, Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import {
  formatDate,
  formatDateTime,
  type Review,
  type ReviewerInput,
  type StoredDocument,
} from '@vertragsgenerator/domain';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { envelopePath, NEGOTIATION_ANCHOR } from '@/lib/paths';
import { agreeReview, documentReviewQueryOptions, sendNextRound, startReview, withdrawReview } from './api';
import { Comments } from './comments';
import { ConfirmButton } from './confirm-button';
import { Differences } from './differences';
import { useFocusReturn } from './focus-return';
import { type ReviewCache, reloadOnConflict, useReviewCache } from './review-cache';
import { RoundForm } from './round-form';
import { Rounds } from './rounds';
import { Suggestions } from './suggestions';
import { reviewTexts } from './texts';

const t = reviewTexts;

/** What the editor page gives the panel (app/ passes its `DocumentPanelContext` on). */
export interface NegotiationPanelProps {
  document: StoredDocument;
  /** The document's newest stored version: what decisions build on. */
  latestVersion: number | undefined;
  /** The editor holds unsaved changes. */
  dirty: boolean;
  /** The server made a new version: the editor opens it; settles once its number is known. */
  onDocumentChanged: () => Promise<void>;
}

/**
 * „Verhandlung“ below the editor, for legal staff: the contract sent to the counterparty for review,
 * their suggestions decided, the comments, the next round, and the agreed version sent for signature;
 * and how the text now differs from what the template made.
 */
export function NegotiationPanel({
  document,
  latestVersion,
  dirty,
  onDocumentChanged,
}: NegotiationPanelProps) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const review = useQuery(documentReviewQueryOptions(document.id));
  const cache = useReviewCache(document.id);
  const { hash } = useLocation();

  // The panel comes after the page (lazily): the browser's own jump to `#verhandlung` found nothing yet.
  useEffect(() => {
    if (hash !== `#${NEGOTIATION_ANCHOR}`) return;
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, [hash]);
  // Where the control a keyboard was on goes away with what it did (a round sent, the negotiation
  // ended), the focus goes to the panel's heading instead of falling back to the top of the page.
  const focusHeading = useCallback(() => heading.current?.focus(), []);

  return (
    <Stack component="section" id={NEGOTIATION_ANCHOR} aria-labelledby={headingId} gap="md" mt="lg">
      <Title order={2} id={headingId} ref={heading} tabIndex={-1}>
        {t.heading}
      </Title>
      {review.data ? (
        review.data.review === null ? (
          <StartReview
            documentId={document.id}
            proposedReviewers={review.data.proposedReviewers}
            dirty={dirty}
            cache={cache}
            onStarted={focusHeading}
          />
        ) : (
          <ReviewView
            review={review.data.review}
            latestVersion={latestVersion}
            dirty={dirty}
            onDocumentChanged={onDocumentChanged}
            cache={cache}
            onLeftOpen={focusHeading}
          />
        )
      ) : review.isError ? (
        <Alert color="red" title={t.loadFailed}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(review.error)}</Text>
            <Button size="xs" variant="light" onClick={() => review.refetch()}>
              {t.retry}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <SectionLoader />
      )}
      <Differences documentId={document.id} latestVersion={latestVersion} />
    </Stack>
  );
}

/**
 * No negotiation yet: what it is, and „Zur Prüfung senden“ opening the form of the first round, filled
 * with the counterparty's signers where the document has an envelope draft.
 */
function StartReview({
  documentId,
  proposedReviewers,
  dirty,
  cache,
  onStarted,
}: {
  documentId: string;
  proposedReviewers: readonly ReviewerInput[];
  dirty: boolean;
  cache: ReviewCache;
  onStarted: () => void;
}) {
  const [open, setOpen] = useState(false);
  const startButton = useFocusReturn<HTMLButtonElement>(open);
  if (open) {
    return (
      <RoundForm
        kind="start"
        round={1}
        reviewers={proposedReviewers}
        dirty={dirty}
        send={(request) => reloadOnConflict(startReview(documentId, request), cache)}
        onSent={(review) => {
          cache.set(review);
          notifications.show({ color: 'green', message: t.form.sent(1) });
          onStarted();
        }}
        onCancel={() => setOpen(false)}
      />
    );
  }
  return (
    <Stack gap="sm" align="flex-start">
      <Text size="sm">{t.intro}</Text>
      <Button ref={startButton} onClick={() => setOpen(true)}>
        {t.start}
      </Button>
    </Stack>
  );
}

function lastRoundOf(review: Review) {
  return review.rounds.reduce<Review['rounds'][number] | undefined>(
    (last, round) => (last === undefined || round.number > last.number ? round : last),
    undefined,
  );
}

function ReviewView({
  review,
  latestVersion,
  dirty,
  onDocumentChanged,
  cache,
  onLeftOpen,
}: {
  review: Review;
  latestVersion: number | undefined;
  dirty: boolean;
  onDocumentChanged: () => Promise<void>;
  cache: ReviewCache;
  /** A round was sent or the negotiation ended: the buttons the focus was on are gone. */
  onLeftOpen: () => void;
}) {
  const navigate = useNavigate();
  const [nextRoundOpen, setNextRoundOpen] = useState(false);
  const nextRoundButton = useFocusReturn<HTMLButtonElement>(nextRoundOpen);
  const last = lastRoundOf(review);
  const openSuggestions = review.rounds.flatMap((round) =>
    round.suggestions.filter((suggestion) => suggestion.outcome === 'open'),
  ).length;
  const isOpen = review.state === 'open';
  // Once the answer is in the cache, not when the action returns: the cache tells the page a moment later,
  // and the page in between still shows the buttons of before.
  const shown = useRef({ isOpen, rounds: review.rounds.length });
  useEffect(() => {
    const before = shown.current;
    if ((before.isOpen && !isOpen) || review.rounds.length > before.rounds) onLeftOpen();
    shown.current = { isOpen, rounds: review.rounds.length };
  }, [isOpen, review.rounds.length, onLeftOpen]);
  // The next round and the agreement both wait for the counterparty's answer and for every decision on it.
  const settled = isOpen && last?.state === 'returned' && openSuggestions === 0;
  const nextReviewers: ReviewerInput[] = (last?.reviewers ?? [])
    .filter((reviewer) => reviewer.withdrawnAt === null)
    .map(({ name, email }) => ({ name, email }));
  const agreeLabel = review.envelopeId ? t.actions.agreeAndSign : t.actions.agree;

  async function agree() {
    const agreed = await reloadOnConflict(agreeReview(review.id), cache);
    if (agreed.envelopeId) {
      // The sender view reads the envelope afresh, with the agreed version as its document.
      navigate(envelopePath(agreed.envelopeId));
      return;
    }
    cache.set(agreed.review);
    notifications.show({ color: 'green', message: t.actions.agreed });
  }

  return (
    <Stack gap="md">
      <Stack gap="xs">
        <Group gap="xs">
          <Text size="sm" fw={600}>
            {t.stateLabel}:
          </Text>
          <Badge variant="light" color={isOpen ? 'blue' : review.state === 'agreed' ? 'green' : 'gray'}>
            {t.state[review.state]}
          </Badge>
        </Group>
        <StateNotice review={review} openSuggestions={openSuggestions} />
        {isOpen && settled && dirty && (
          <Alert color="yellow" p="xs">
            <Text size="sm">{t.saveFirst}</Text>
          </Alert>
        )}
        {isOpen && !nextRoundOpen && (
          <Group gap="sm">
            {settled && (
              <>
                <Button ref={nextRoundButton} onClick={() => setNextRoundOpen(true)} disabled={dirty}>
                  {t.actions.nextRound}
                </Button>
                <ConfirmButton
                  variant="filled"
                  color="green.8"
                  label={agreeLabel}
                  title={t.actions.agreeTitle}
                  text={[
                    t.actions.agreeText(latestVersion),
                    ...(review.envelopeId ? [t.actions.agreeToEnvelope] : []),
                  ].join(' ')}
                  disabled={dirty}
                  action={agree}
                />
              </>
            )}
            <ConfirmButton
              color="red.8"
              label={t.actions.withdraw}
              title={t.actions.withdrawTitle}
              text={t.actions.withdrawText}
              action={async () => {
                cache.set(await reloadOnConflict(withdrawReview(review.id), cache));
                notifications.show({ message: t.actions.withdrawn });
              }}
            />
          </Group>
        )}
      </Stack>
      {isOpen && nextRoundOpen && last && (
        <RoundForm
          kind="next"
          round={last.number + 1}
          reviewers={nextReviewers}
          dirty={dirty}
          send={(request) => reloadOnConflict(sendNextRound(review.id, request), cache)}
          onSent={(sent) => {
            cache.set(sent);
            setNextRoundOpen(false);
            notifications.show({
              color: 'green',
              message: t.form.sent(lastRoundOf(sent)?.number ?? last.number + 1),
            });
          }}
          onCancel={() => setNextRoundOpen(false)}
        />
      )}
      {last?.state === 'returned' && (
        <Suggestions
          review={review}
          round={last}
          decidable={isOpen}
          latestVersion={latestVersion}
          dirty={dirty}
          onDocumentChanged={onDocumentChanged}
          cache={cache}
        />
      )}
      <Rounds review={review} cache={cache} />
      <Comments review={review} cache={cache} />
    </Stack>
  );
}

function StateNotice({ review, openSuggestions }: { review: Review; openSuggestions: number }) {
  const last = lastRoundOf(review);
  if (review.state === 'agreed') {
    return (
      <Stack gap={4} align="flex-start">
        <Text size="sm">
          {t.agreedOn(
            review.agreedBy ?? '',
            review.agreedAt ? formatDateTime(new Date(review.agreedAt)) : '',
            review.agreedVersion,
          )}
        </Text>
        {review.envelopeId && (
          <Anchor component={Link} to={envelopePath(review.envelopeId)} size="sm" fw={600}>
            {t.toEnvelope}
          </Anchor>
        )}
      </Stack>
    );
  }
  if (review.state === 'withdrawn') return <Text size="sm">{t.withdrawnNotice}</Text>;
  if (last?.state === 'sent')
    return <Text size="sm">{t.waiting(last.number, formatDate(last.dueDate))}</Text>;
  if (last?.state === 'returned') {
    return <Text size="sm">{openSuggestions > 0 ? t.decideFirst(openSuggestions) : t.readyForNext}</Text>;
  }
  return null;
}
