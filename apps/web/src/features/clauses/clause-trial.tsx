import { Alert, Badge, Button, Code, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { ClauseTrial as Trial } from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '@/lib/api';
import { tryVersion } from './api';
import { clauseTexts } from './texts';

const t = clauseTexts.trial;

function TrialTable({ trial }: { trial: Trial }) {
  if (trial.documents.length === 0) return <Text>{t.noDocuments}</Text>;
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="xs" aria-label={t.trialFor(trial.matchId)}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.document}</Table.Th>
            <Table.Th>{t.language}</Table.Th>
            <Table.Th>{t.variant}</Table.Th>
            <Table.Th>{t.reason}</Table.Th>
            <Table.Th>{t.text}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {trial.documents.map((document) => {
            const chosen = document.choice.chosen;
            return (
              <Table.Tr key={document.key} style={{ verticalAlign: 'top' }}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {document.key}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {document.template}
                  </Text>
                </Table.Td>
                <Table.Td>{t.languages[document.language]}</Table.Td>
                <Table.Td>
                  {chosen ? (
                    <Text size="sm">{t.chosen(chosen.variant, chosen.version)}</Text>
                  ) : (
                    <Badge color="gray" variant="light">
                      {t.omitted}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{document.choice.reason}</Text>
                  {chosen?.rule && <Code>{chosen.rule}</Code>}
                </Table.Td>
                <Table.Td lang={document.language}>
                  {document.paragraphs.length === 0
                    ? '–'
                    : document.paragraphs.map((paragraph, index) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: a trial's paragraphs never reorder
                        <Text key={index} size="sm" mb={4} style={{ whiteSpace: 'pre-wrap' }}>
                          {paragraph}
                        </Text>
                      ))}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * `An einem Deal ausprobieren`: for every document placing the clause, the variant the deal would get
 * from this version, the rule or reason that chose it, and its paragraphs filled with the deal's values.
 */
export function ClauseTrial({ clauseKey, version }: { clauseKey: string; version: number }) {
  const [matchId, setMatchId] = useState('');
  const trial = useMutation({ mutationFn: (id: string) => tryVersion(clauseKey, version, id) });

  function tryIt(event: FormEvent) {
    event.preventDefault();
    trial.mutate(matchId.trim());
  }

  return (
    <section aria-labelledby="trial-heading">
      <Stack gap="sm">
        <Title order={3} size="h4" id="trial-heading">
          {t.heading}
        </Title>
        <Text size="sm">{t.intro}</Text>
        <form onSubmit={tryIt} noValidate>
          <Group align="flex-end">
            <TextInput
              label={t.matchId}
              description={t.matchIdDescription}
              placeholder="PL-10001"
              value={matchId}
              onChange={(event) => setMatchId(event.currentTarget.value)}
              autoComplete="off"
              w={260}
            />
            <Button type="submit" variant="default" loading={trial.isPending}>
              {t.tryIt}
            </Button>
          </Group>
        </form>
        <div aria-live="polite">
          {trial.isError && (
            <Alert color="red" title={t.failed}>
              {errorMessage(trial.error)}
            </Alert>
          )}
          {trial.data && !trial.isError && (
            <Stack gap="xs">
              <Text fw={500}>{t.trialFor(trial.data.matchId)}</Text>
              <TrialTable trial={trial.data} />
            </Stack>
          )}
        </div>
      </Stack>
    </section>
  );
}
