import { Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { versionLibraryTexts } from './texts';

const t = versionLibraryTexts.trial;

/**
 * A version tried on a deal: the Match-ID to try it with (empty: the server's demo match with the most
 * values), the refusal in the server's words, or what the trial made — `children` shows that. Nothing of
 * it is stored.
 */
export function MatchTrial<R extends { matchId: string }>({
  heading,
  intro,
  onTry,
  pending,
  loading = false,
  error,
  result,
  autoComplete,
  children,
  after,
}: {
  heading: string;
  intro: string;
  /** Tries the version with the Match-ID typed, trimmed. */
  onTry: (matchId: string) => void;
  /** A trial is under way. */
  pending: boolean;
  /** The first trial is under way: a loader stands where its result will. */
  loading?: boolean;
  /** Why the last trial failed; null when it did not. */
  error: unknown;
  /** What the last trial made. */
  result: R | undefined;
  autoComplete?: string;
  children: (result: R) => ReactNode;
  /** Below the result, e.g. a document of it opened. */
  after?: ReactNode;
}) {
  const [typed, setTyped] = useState('');

  function tryIt(event: FormEvent) {
    event.preventDefault();
    onTry(typed.trim());
  }

  return (
    <section aria-labelledby="trial-heading">
      <Stack gap="sm">
        <Title order={3} size="h4" id="trial-heading">
          {heading}
        </Title>
        <Text size="sm">{intro}</Text>
        <form onSubmit={tryIt} noValidate>
          <Group align="flex-end">
            <TextInput
              label={t.matchId}
              description={t.matchIdDescription}
              placeholder="PL-10001"
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete={autoComplete}
              w={260}
            />
            <Button type="submit" variant="default" loading={pending}>
              {t.tryIt}
            </Button>
          </Group>
        </form>
        <div aria-live="polite">
          {loading && <SectionLoader height={80} />}
          {error !== null && (
            <Alert color="red" title={t.failed}>
              {errorMessage(error)}
            </Alert>
          )}
          {result && error === null && (
            <Stack gap="xs">
              <Text fw={500}>{t.trialFor(result.matchId)}</Text>
              {children(result)}
            </Stack>
          )}
        </div>
        {after}
      </Stack>
    </section>
  );
}
