import './reviews.css';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { DifferingParagraph } from '@vertragsgenerator/domain';
import { useId } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { differencesQueryOptions } from './api';
import { MarkedText } from './marked-text';
import { reviewTexts } from './texts';
import { diffWords } from './word-diff';

const t = reviewTexts.differences;

/**
 * „Abweichungen von der Vorlage“: the paragraphs of the newest version that differ from what the
 * template made for this deal, word by word, those the template marks flagged: changing them needs a
 * Freigabe.
 */
export function Differences({
  documentId,
  latestVersion,
}: {
  documentId: string;
  latestVersion: number | undefined;
}) {
  const headingId = useId();
  const differences = useQuery(differencesQueryOptions(documentId, latestVersion));
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={3} id={headingId}>
        {t.heading}
      </Title>
      {differences.data ? (
        <DifferenceList version={differences.data.version} paragraphs={differences.data.paragraphs} />
      ) : differences.isError ? (
        <Alert color="red" title={t.loadFailed}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(differences.error)}</Text>
            <Button size="xs" variant="light" onClick={() => differences.refetch()}>
              {reviewTexts.retry}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <SectionLoader />
      )}
    </Stack>
  );
}

function DifferenceList({
  version,
  paragraphs,
}: {
  version: number;
  paragraphs: readonly DifferingParagraph[];
}) {
  if (paragraphs.length === 0) return <Text size="sm">{t.none}</Text>;
  const marked = paragraphs.filter((paragraph) => paragraph.marked).length;
  return (
    <>
      <Text size="sm">
        {t.intro(version)} {t.count(paragraphs.length, marked)}
      </Text>
      <ul className="review-list" aria-label={t.list}>
        {paragraphs.map((paragraph, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is the server's answer for one version, never reordered
          <li key={index}>
            <ParagraphView paragraph={paragraph} />
          </li>
        ))}
      </ul>
    </>
  );
}

function ParagraphView({ paragraph }: { paragraph: DifferingParagraph }) {
  const { generated, current } = paragraph;
  const kind = generated === null ? t.added : current === null ? t.removed : t.changed;
  return (
    <Paper
      withBorder
      p="sm"
      // A marked paragraph carries a thicker border at its side as well as its badge.
      style={paragraph.marked ? { borderInlineStart: '4px solid var(--mantine-color-orange-7)' } : undefined}
    >
      <Stack gap={6}>
        <Group gap="xs">
          <Badge variant="outline">{kind}</Badge>
          {paragraph.marked && (
            <Badge variant="filled" color="orange.9">
              {t.marked}
            </Badge>
          )}
        </Group>
        <Text className="review-text">
          {generated === null ? (
            <MarkedText text={current ?? ''} change="added" label={t.insertedWords} />
          ) : current === null ? (
            <MarkedText text={generated} change="removed" label={t.deletedWords} />
          ) : (
            diffWords(generated, current).map((run, index) =>
              run.change === 'kept' ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: the runs of a paragraph never reorder
                <span key={index}>{run.text}</span>
              ) : (
                <MarkedText
                  // biome-ignore lint/suspicious/noArrayIndexKey: the runs of a paragraph never reorder
                  key={index}
                  text={run.text}
                  change={run.change}
                  label={run.change === 'added' ? t.insertedWords : t.deletedWords}
                />
              ),
            )
          )}
        </Text>
      </Stack>
    </Paper>
  );
}
