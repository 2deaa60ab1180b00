import { Badge, Code, Table, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { ClauseTrial as Trial } from '@vertragsgenerator/domain';
import { MatchTrial, versionLibraryTexts } from '@/components/version-library';
import { tryVersion } from './api';
import { clauseTexts } from './texts';

const t = clauseTexts.trial;

function TrialTable({ trial }: { trial: Trial }) {
  if (trial.documents.length === 0) return <Text>{t.noDocuments}</Text>;
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="xs" aria-label={versionLibraryTexts.trial.trialFor(trial.matchId)}>
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
  const trial = useMutation({ mutationFn: (id: string) => tryVersion(clauseKey, version, id) });
  return (
    <MatchTrial
      heading={t.heading}
      intro={t.intro}
      onTry={trial.mutate}
      pending={trial.isPending}
      error={trial.error}
      result={trial.data}
      autoComplete="off"
    >
      {(result) => <TrialTable trial={result} />}
    </MatchTrial>
  );
}
