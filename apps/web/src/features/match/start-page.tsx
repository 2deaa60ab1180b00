import { Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type MatchAnswer, normalizeMatchId, plausibilityHints } from '@vertragsgenerator/domain';
import { type FormEvent, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { MatchDocuments } from '@/components/match-documents';
import { SectionLoader } from '@/components/section-loader';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { matchQueryOptions, useMatch } from '@/lib/match-api';
import { PATHS } from '@/lib/paths';
import { rememberMatchId, storedMatchId } from '@/lib/storage';
import { texts } from '@/texts';
import { CachedNotice } from './cached-notice';
import { useConfirmToTableTiming } from './confirm-timing';
import { MatchHints } from './match-hints';
import { MatchTable } from './match-table';

function loadErrorMessage(error: unknown): string {
  // The page words the wrong-ID alert itself, so it does not depend on the server's phrasing.
  if (error instanceof ApiRequestError && error.status === 404) return texts.match.unknownId;
  return errorMessage(error);
}

/**
 * ID-Input: confirms a match ID and shows the deal data. Only the ID is persisted; a reload loads the
 * match again from it (docs/decisions.md#match-values-not-in-local-storage).
 */
export function StartPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [matchId, setMatchId] = useState(storedMatchId);
  const [input, setInput] = useState(() => matchId ?? '');
  const match = useMatch(matchId);
  const markConfirmed = useConfirmToTableTiming(match);
  const blank = input.trim() === '';

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (blank) return;
    const id = normalizeMatchId(input);
    markConfirmed();
    rememberMatchId(id);
    setInput(id);
    setMatchId(id);
    // Re-entering an ID is how corrections from the CRM arrive, so it never answers from the cache.
    void queryClient.resetQueries({ queryKey: matchQueryOptions(id).queryKey, exact: true });
  }

  return (
    <Stack>
      <Title order={1}>{texts.match.heading}</Title>
      <Text>{texts.match.help}</Text>
      <form onSubmit={handleSubmit}>
        <Group align="flex-end">
          <TextInput
            label={texts.match.idLabel}
            placeholder={texts.match.idPlaceholder}
            autoComplete="off"
            value={input}
            onChange={(event) => setInput(event.currentTarget.value)}
          />
          <Button type="submit" disabled={blank} loading={match.isFetching}>
            {texts.match.confirm}
          </Button>
        </Group>
      </form>
      {match.isError && <Alert color="red">{loadErrorMessage(match.error)}</Alert>}
      {match.data ? <MatchDetails match={match.data} /> : match.isFetching && <SectionLoader />}
      <Group>
        <Button onClick={() => navigate(PATHS.format)} disabled={!match.data}>
          {texts.match.next}
        </Button>
      </Group>
      {match.data && <MatchDocuments matchId={match.data.matchId} />}
    </Stack>
  );
}

function MatchDetails({ match }: { match: MatchAnswer }) {
  const hints = useMemo(() => plausibilityHints(match, new Date()), [match]);
  const hintedFields = useMemo(() => new Set<string>(hints.flatMap((hint) => hint.fields)), [hints]);
  return (
    <>
      {match.cachedAt && <CachedNotice cachedAt={match.cachedAt} />}
      <MatchHints hints={hints} />
      <MatchTable match={match} hintedFields={hintedFields} />
    </>
  );
}
