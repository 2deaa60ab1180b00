import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '@/components/load-failed';
import { hasChanges, ParagraphComparison } from '@/components/paragraph-comparison';
import { SectionLoader } from '@/components/section-loader';
import { comparisonQueryOptions } from './api';
import { templateTexts } from './texts';

const t = templateTexts.review;

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
    body = (
      <Stack gap="xs">
        <Text size="sm">{base === null ? t.noBase : t.againstPublished(base)}</Text>
        {hasChanges(paragraphs) ? (
          <ParagraphComparison
            paragraphs={paragraphs}
            texts={{
              label: t.changesHeading,
              added: t.added,
              removed: t.removed,
              keptParagraphs: t.keptParagraphs,
            }}
          />
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
