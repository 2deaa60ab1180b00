import { Alert, Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { FormName, ResolvedMatch } from '@vertragsgenerator/domain';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { MatchDocuments } from '@/components/match-documents';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { useMatch } from '@/lib/match-api';
import { PATHS } from '@/lib/paths';
import { storedMatchId } from '@/lib/storage';
import { texts } from '@/texts';

export interface FormPageProps {
  form: FormName;
  /** The form itself, once the match it works on is loaded. */
  children: (match: ResolvedMatch) => ReactNode;
}

/** Title, the match a form works on and the way back to /start. */
export function FormPage({ form, children }: FormPageProps) {
  const matchId = storedMatchId();
  const match = useMatch(matchId);
  return (
    <Stack maw={720}>
      <Title order={1}>{texts.forms[form]}</Title>
      {matchId === null ? (
        <Alert color="yellow">{texts.forms.noMatch}</Alert>
      ) : match.isError ? (
        <Alert color="red">{errorMessage(match.error)}</Alert>
      ) : match.data ? (
        <MatchSummary match={match.data} />
      ) : (
        <SectionLoader />
      )}
      <Anchor component={Link} to={PATHS.start}>
        {texts.forms.backToStart}
      </Anchor>
      {match.data && children(match.data)}
      {match.data && <MatchDocuments matchId={match.data.matchId} />}
    </Stack>
  );
}

function MatchSummary({ match }: { match: ResolvedMatch }) {
  const partner = [match.candidateFirstName, match.candidateLastName].filter(Boolean).join(' ') || '/';
  return (
    <Paper withBorder p="sm" aria-label={texts.forms.matchLabel} component="section">
      <Group gap="xl">
        <Text>
          <Text span fw={600}>
            {texts.forms.matchLabel}:
          </Text>{' '}
          {match.matchId}
        </Text>
        <Text>
          <Text span fw={600}>
            {texts.forms.customer}:
          </Text>{' '}
          {match.kunde || '/'}
        </Text>
        <Text>
          <Text span fw={600}>
            {texts.forms.projectPartner}:
          </Text>{' '}
          {partner}
        </Text>
      </Group>
    </Paper>
  );
}
