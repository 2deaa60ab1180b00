import './reviews.css';
import { Badge, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import {
  formatDate,
  formatDateTime,
  type Review,
  type ReviewReviewer,
  type ReviewRound,
} from '@vertragsgenerator/domain';
import { useId } from 'react';
import { renewReviewerLink, withdrawReviewerLink } from './api';
import { ConfirmButton } from './confirm-button';
import { notifyFailure, type ReviewCache, reloadOnConflict } from './review-cache';
import { reviewTexts } from './texts';

const t = reviewTexts.rounds;

const at = (iso: string) => formatDateTime(new Date(iso));

/** The first characters of a SHA-256, enough to tell versions apart when read aloud or compared. */
function shortSha(sha: string): string {
  return `${sha.slice(0, 12)}…`;
}

function Sha({ sha }: { sha: string }) {
  return (
    <>
      {t.sha} <Code title={t.fullSha(sha)}>{shortSha(sha)}</Code>
    </>
  );
}

const STATE_COLORS: Record<ReviewRound['state'], string> = {
  sent: 'blue',
  returned: 'green',
  withdrawn: 'gray',
};

/** The rounds of the negotiation, newest first; the links of the round still out can be renewed or withdrawn. */
export function Rounds({ review, cache }: { review: Review; cache: ReviewCache }) {
  const headingId = useId();
  const rounds = [...review.rounds].sort((a, b) => b.number - a.number);
  const last = rounds[0];
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={3} id={headingId}>
        {t.heading}
      </Title>
      <ul className="review-list">
        {rounds.map((round) => (
          <li key={round.id}>
            <RoundView
              review={review}
              round={round}
              // Only the round that is out has links worth renewing or withdrawing.
              linksChangeable={review.state === 'open' && round === last && round.state === 'sent'}
              cache={cache}
            />
          </li>
        ))}
      </ul>
    </Stack>
  );
}

function RoundView({
  review,
  round,
  linksChangeable,
  cache,
}: {
  review: Review;
  round: ReviewRound;
  linksChangeable: boolean;
  cache: ReviewCache;
}) {
  const headingId = useId();
  const counts = {
    accepted: round.suggestions.filter((suggestion) => suggestion.outcome === 'accepted').length,
    rejected: round.suggestions.filter((suggestion) => suggestion.outcome === 'rejected').length,
    open: round.suggestions.filter((suggestion) => suggestion.outcome === 'open').length,
  };
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={headingId}>
      <Stack gap={6}>
        <Group gap="sm">
          <Title order={4} id={headingId}>
            {t.round(round.number)}
          </Title>
          <Badge variant="light" color={STATE_COLORS[round.state]}>
            {t.state[round.state]}
          </Badge>
        </Group>
        <Text size="sm">
          {t.sent(round.sentBy, at(round.sentAt))} · {t.sentVersion(round.sentVersion)} ·{' '}
          <Sha sha={round.sentSha256} />
        </Text>
        <Text size="sm">{t.due(formatDate(round.dueDate))}</Text>
        {round.message && (
          <Stack gap={2}>
            <Text size="sm" fw={600}>
              {t.message}
            </Text>
            <Text size="sm" className="review-text">
              {round.message}
            </Text>
          </Stack>
        )}
        {round.returnedAt && (
          <Text size="sm">
            {t.returned(round.returnedBy, at(round.returnedAt))}
            {round.returnedVia && ` · ${t.via[round.returnedVia]}`}
            {round.returnedVersion !== null && (
              <>
                {' · '}
                {t.returnedVersion(round.returnedVersion)}
                {round.returnedSha256 && (
                  <>
                    {' · '}
                    <Sha sha={round.returnedSha256} />
                  </>
                )}
              </>
            )}
          </Text>
        )}
        {round.suggestions.length > 0 && <Text size="sm">{t.suggestionCounts(counts)}</Text>}
        <ul className="review-list" aria-label={t.reviewersLabel(round.number)}>
          {round.reviewers.map((reviewer) => (
            <li key={reviewer.id}>
              <ReviewerView
                reviewId={review.id}
                reviewer={reviewer}
                changeable={linksChangeable}
                cache={cache}
              />
            </li>
          ))}
        </ul>
      </Stack>
    </Paper>
  );
}

/** Where the reviewer's link stands, in words. */
function linkStates(reviewer: ReviewReviewer, now: number): string[] {
  if (reviewer.withdrawnAt) return [t.withdrawnAt(at(reviewer.withdrawnAt))];
  const states = [reviewer.openedAt ? t.opened(at(reviewer.openedAt)) : t.notOpened];
  if (reviewer.remindedAt) states.push(t.reminded(at(reviewer.remindedAt)));
  const expires = Date.parse(reviewer.linkExpiresAt);
  states.push(
    expires > now ? t.validUntil(at(reviewer.linkExpiresAt)) : t.expired(at(reviewer.linkExpiresAt)),
  );
  return states;
}

function ReviewerView({
  reviewId,
  reviewer,
  changeable,
  cache,
}: {
  reviewId: string;
  reviewer: ReviewReviewer;
  changeable: boolean;
  cache: ReviewCache;
}) {
  const renew = useMutation({
    mutationFn: () => renewReviewerLink(reviewId, reviewer.id),
    onSuccess: (review) => {
      cache.set(review);
      notifications.show({ color: 'green', message: t.renewed(reviewer.email) });
    },
    onError: (error) => notifyFailure(error, cache),
  });
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
      <Stack gap={0}>
        <Text size="sm">
          <Text span fw={600}>
            {reviewer.name}
          </Text>{' '}
          ({reviewer.email})
        </Text>
        <Text size="sm" c="dimmed">
          {linkStates(reviewer, Date.now()).join(' · ')}
        </Text>
      </Stack>
      {/* A withdrawn link stays withdrawn: the person is sent the next round, not a renewed link. */}
      {changeable && !reviewer.withdrawnAt && (
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            aria-label={t.renewFor(reviewer.name)}
            loading={renew.isPending}
            onClick={() => renew.mutate()}
          >
            {t.renew}
          </Button>
          <ConfirmButton
            size="xs"
            color="red.8"
            label={t.withdrawLink}
            ariaLabel={t.withdrawLinkFor(reviewer.name)}
            title={t.withdrawLinkTitle(reviewer.name)}
            text={t.withdrawLinkText}
            action={() =>
              reloadOnConflict(withdrawReviewerLink(reviewId, reviewer.id), cache).then((review) => {
                cache.set(review);
                notifications.show({ message: t.linkWithdrawn(reviewer.name) });
              })
            }
          />
        </Group>
      )}
    </Group>
  );
}
