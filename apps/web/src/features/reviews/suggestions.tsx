import './reviews.css';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import {
  type DecideSuggestionsRequest,
  formatDateTime,
  type Review,
  type ReviewRound,
  type Suggestion,
} from '@vertragsgenerator/domain';
import { useEffect, useId, useRef, useState } from 'react';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { decideSuggestions } from './api';
import { MarkedText } from './marked-text';
import type { ReviewCache } from './review-cache';
import { reviewTexts } from './texts';

const t = reviewTexts.suggestions;

type Decision = Pick<DecideSuggestionsRequest, 'decisions' | 'all'>;

const OUTCOME_COLORS: Record<Suggestion['outcome'], string> = {
  open: 'orange',
  accepted: 'green',
  rejected: 'gray',
};

export interface SuggestionsProps {
  review: Review;
  /** The returned round whose suggestions are listed. */
  round: ReviewRound;
  /** Open suggestions may be decided: the negotiation is open and this is its last round. */
  decidable: boolean;
  /** The document's newest version, which every decision names as the one it builds on. */
  latestVersion: number | undefined;
  /** Unsaved changes in the editor: a decision makes a new version they would conflict with. */
  dirty: boolean;
  onDocumentChanged: () => Promise<void>;
  cache: ReviewCache;
}

/**
 * The counterparty's suggestions of a returned round, each accepted or rejected, or all open ones at once.
 * Each decision makes a new version of the document; the editor then opens it, and the buttons wait
 * until its number is known, which the next decision builds on.
 */
export function Suggestions({
  review,
  round,
  decidable,
  latestVersion,
  dirty,
  onDocumentChanged,
  cache,
}: SuggestionsProps) {
  const headingId = useId();
  /** The server's words when the document was saved meanwhile: shown until the next decision. */
  const [conflict, setConflict] = useState<string | null>(null);
  const decide = useMutation({
    mutationFn: (decision: Decision) => {
      if (latestVersion === undefined) throw new Error('no version known');
      return decideSuggestions(review.id, { baseVersion: latestVersion, ...decision });
    },
    onMutate: () => setConflict(null),
    // Returned promises keep the buttons disabled until the editor knows the new newest version.
    onSuccess: async (decided) => {
      cache.set(decided);
      await onDocumentChanged();
    },
    onError: async (error) => {
      if (error instanceof ApiRequestError && error.status === 409) {
        setConflict(error.message);
        await Promise.all([cache.reload(), onDocumentChanged()]);
      }
    },
  });
  // The ref, not the pending state: a double click arrives before the re-render that disables the buttons.
  const deciding = useRef(false);
  function send(decision: Decision) {
    if (deciding.current) return;
    deciding.current = true;
    decide.mutate(decision, {
      onSettled: () => {
        deciding.current = false;
      },
    });
  }
  const open = round.suggestions.filter((suggestion) => suggestion.outcome === 'open');
  const heading = useRef<HTMLHeadingElement>(null);
  const shownOpen = useRef(open.length);
  // A decided suggestion loses its buttons, and with them the focus: the section's heading takes it
  // rather than the top of the page.
  useEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (open.length < shownOpen.current && lost) heading.current?.focus();
    shownOpen.current = open.length;
  }, [open.length]);
  const busy = decide.isPending || dirty || latestVersion === undefined;
  const countId = useId();

  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={3} id={headingId} ref={heading} tabIndex={-1}>
        {t.heading(round.number)}
      </Title>
      {conflict !== null && (
        <Alert color="yellow" title={t.conflictTitle} role="alert">
          <Text size="sm">{conflict}</Text>
          <Text size="sm">{t.conflictReloaded}</Text>
        </Alert>
      )}
      {decide.isError && conflict === null && (
        <Alert color="red" title={t.failedTitle} role="alert">
          {errorMessage(decide.error)}
        </Alert>
      )}
      {round.suggestions.length === 0 ? (
        <Text size="sm">{t.none}</Text>
      ) : (
        <>
          {decidable && open.length > 0 && (
            <Stack gap="xs">
              {dirty && (
                <Alert color="yellow" p="xs">
                  <Text size="sm">{reviewTexts.decideSaveFirst}</Text>
                </Alert>
              )}
              <Group gap="sm">
                <Text size="sm" id={countId}>
                  {t.openCount(open.length)}
                </Text>
                <Button
                  size="xs"
                  disabled={busy}
                  aria-describedby={countId}
                  onClick={() => send({ decisions: [], all: 'accepted' })}
                >
                  {t.acceptAll}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  disabled={busy}
                  aria-describedby={countId}
                  onClick={() => send({ decisions: [], all: 'rejected' })}
                >
                  {t.rejectAll}
                </Button>
              </Group>
            </Stack>
          )}
          <ul className="review-list" aria-label={t.list}>
            {round.suggestions.map((suggestion) => (
              <li key={suggestion.id}>
                <SuggestionView
                  suggestion={suggestion}
                  decidable={decidable}
                  busy={busy}
                  onDecide={(outcome) => send({ decisions: [{ id: suggestion.id, outcome }], all: null })}
                />
              </li>
            ))}
          </ul>
        </>
      )}
    </Stack>
  );
}

function SuggestionView({
  suggestion,
  decidable,
  busy,
  onDecide,
}: {
  suggestion: Suggestion;
  decidable: boolean;
  busy: boolean;
  onDecide: (outcome: 'accepted' | 'rejected') => void;
}) {
  const textId = useId();
  const outcome = t.outcome[suggestion.outcome];
  return (
    <Paper withBorder p="sm">
      <Stack gap={6}>
        <Group gap="xs">
          <Badge variant="outline">{t.kind[suggestion.kind]}</Badge>
          <Badge variant="light" color={OUTCOME_COLORS[suggestion.outcome]}>
            {outcome}
          </Badge>
        </Group>
        <Text id={textId}>
          <MarkedText
            text={suggestion.text}
            change={suggestion.kind === 'insert' ? 'added' : 'removed'}
            label={suggestion.kind === 'insert' ? t.inserted : t.deleted}
          />
        </Text>
        {suggestion.context && (
          <Text size="sm" c="dimmed" className="review-text">
            {t.context}: „{suggestion.context}“
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {t.by(suggestion.author, formatDateTime(new Date(suggestion.at)))}
        </Text>
        {suggestion.outcome !== 'open' && suggestion.decidedAt && (
          <Text size="sm">
            {t.decided(outcome, suggestion.decidedBy, formatDateTime(new Date(suggestion.decidedAt)))}
          </Text>
        )}
        {decidable && suggestion.outcome === 'open' && (
          <Group gap="xs">
            <Button size="xs" disabled={busy} aria-describedby={textId} onClick={() => onDecide('accepted')}>
              {t.accept}
            </Button>
            <Button
              size="xs"
              variant="default"
              disabled={busy}
              aria-describedby={textId}
              onClick={() => onDecide('rejected')}
            >
              {t.reject}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
