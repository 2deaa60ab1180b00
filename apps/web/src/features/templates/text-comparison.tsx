import './template-comparison.css';
import { Box, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ParagraphChange } from '@vertragsgenerator/domain';
import { LoadFailed } from '@/components/load-failed';
import { SectionLoader } from '@/components/section-loader';
import { comparisonQueryOptions } from './api';
import { templateTexts } from './texts';

const t = templateTexts.review;

/** Inserted and struck text as a reviewer marks it on paper, named for screen readers as well. */
function Part({ text, change }: ParagraphChange['parts'][number]) {
  if (change === 'added') {
    return (
      <ins className="template-added">
        <VisuallyHidden>{t.added}: </VisuallyHidden>
        {text}
      </ins>
    );
  }
  if (change === 'removed') {
    return (
      <del className="template-removed">
        <VisuallyHidden>{t.removed}: </VisuallyHidden>
        {text}
      </del>
    );
  }
  return <>{text}</>;
}

/** Unchanged paragraphs between changes are folded to a count: the reviewer reads what changed. */
type Shown =
  | { kind: 'paragraph'; paragraph: ParagraphChange; index: number }
  | { kind: 'kept'; count: number; index: number };

function fold(paragraphs: ParagraphChange[]): Shown[] {
  const shown: Shown[] = [];
  paragraphs.forEach((paragraph, index) => {
    const last = shown.at(-1);
    if (paragraph.change !== 'kept') shown.push({ kind: 'paragraph', paragraph, index });
    else if (last?.kind === 'kept') last.count++;
    else shown.push({ kind: 'kept', count: 1, index });
  });
  return shown;
}

/** `Was sich ändert`: the version's body text against the published version, paragraph by paragraph. */
export function TextComparison({
  name,
  version,
  published,
}: {
  name: string;
  version: number;
  published: number | null;
}) {
  const comparison = useQuery(comparisonQueryOptions(name, version, published));
  let body: React.ReactNode;
  if (comparison.isPending) body = <SectionLoader height={120} />;
  else if (comparison.isError) {
    body = (
      <LoadFailed title={t.loadFailed} error={comparison.error} onRetry={() => void comparison.refetch()} />
    );
  } else if (version === published) body = <Text>{t.comparedIsPublished}</Text>;
  else {
    const { base, paragraphs } = comparison.data;
    const changed = paragraphs.some((paragraph) => paragraph.change !== 'kept');
    body = (
      <Stack gap="xs">
        <Text size="sm">{base === null ? t.noBase : t.againstPublished(base)}</Text>
        {changed ? (
          <Box className="template-comparison" tabIndex={0} role="region" aria-label={t.changesHeading}>
            {fold(paragraphs).map((shown) =>
              shown.kind === 'kept' ? (
                <Text key={shown.index} size="sm" c="dimmed" fs="italic">
                  {t.keptParagraphs(shown.count)}
                </Text>
              ) : (
                <Text key={shown.index} className={`template-paragraph-${shown.paragraph.change}`}>
                  {shown.paragraph.parts.map((part, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a paragraph never reorder
                    <Part key={i} {...part} />
                  ))}
                </Text>
              ),
            )}
          </Box>
        ) : (
          <Text>{t.noChanges}</Text>
        )}
      </Stack>
    );
  }
  return (
    <section aria-labelledby="changes-heading">
      <Title order={3} size="h4" id="changes-heading" mb="xs">
        {t.changesHeading}
      </Title>
      {body}
    </section>
  );
}
