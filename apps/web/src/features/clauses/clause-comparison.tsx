import { NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ClauseDetail, ClauseComparison as Comparison } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { LoadFailed } from '@/components/load-failed';
import { hasChanges, ParagraphComparison } from '@/components/paragraph-comparison';
import { SectionLoader } from '@/components/section-loader';
import { comparisonQueryOptions } from './api';
import { clauseTexts } from './texts';

const t = clauseTexts.compare;
const languages = clauseTexts.trial.languages;

/** The changed parts one by one, the unchanged ones named in a line: the reviewer reads what changed. */
function Parts({ comparison }: { comparison: Comparison }) {
  const changed = comparison.parts.filter((part) => hasChanges(part.paragraphs));
  const unchanged = comparison.parts.filter((part) => !hasChanges(part.paragraphs));
  const name = (part: Comparison['parts'][number]) => t.part(part.variant, languages[part.language]);
  if (changed.length === 0) return <Text>{t.noChanges}</Text>;
  return (
    <Stack gap="sm">
      {changed.map((part) => (
        <div key={`${part.variant}:${part.language}`} lang={part.language}>
          <Title order={4} size="h5" mb={4}>
            {name(part)}
          </Title>
          <ParagraphComparison
            paragraphs={part.paragraphs}
            texts={{
              label: name(part),
              added: t.added,
              removed: t.removed,
              keptParagraphs: t.keptParagraphs,
            }}
          />
        </div>
      ))}
      {unchanged.length > 0 && (
        <Text size="sm" c="dimmed">
          {t.unchanged(unchanged.map(name).join('; '))}
        </Text>
      )}
    </Stack>
  );
}

/**
 * `Was sich ändert`: the version's texts against the published version by default, or against any
 * other version chosen, per variant and language, insertions and deletions marked.
 */
export function ClauseComparison({ clause, version }: { clause: ClauseDetail; version: number }) {
  const published = clause.publishedVersion;
  // null: the published one, as the server takes it without `base`.
  const [base, setBase] = useState<number | null>(null);
  const isPublished = base === null && version === published;
  const comparison = useQuery({
    ...comparisonQueryOptions(clause.key, version, base, published),
    enabled: !isPublished,
  });
  const others = clause.versions.filter((v) => v.version !== version && v.version !== published);
  const defaultBase =
    published === null
      ? t.nothingPublished
      : published === version
        ? t.thisIsPublished
        : t.publishedBase(published);

  let body: React.ReactNode;
  if (isPublished) body = <Text>{t.comparedIsPublished}</Text>;
  else if (comparison.isPending) body = <SectionLoader height={120} />;
  else if (comparison.isError) {
    body = (
      <LoadFailed title={t.loadFailed} error={comparison.error} onRetry={() => void comparison.refetch()} />
    );
  } else {
    const data = comparison.data;
    body = (
      <Stack gap="xs">
        <Text size="sm">{data.base === null ? t.noBase : t.against(data.base)}</Text>
        {data.base !== null && <Parts comparison={data} />}
      </Stack>
    );
  }

  return (
    <section aria-labelledby="changes-heading">
      <Title order={3} size="h4" id="changes-heading" mb="xs">
        {t.heading}
      </Title>
      <Stack gap="xs">
        {others.length > 0 && (
          <NativeSelect
            label={t.base}
            value={base === null ? '' : String(base)}
            onChange={(event) =>
              setBase(event.currentTarget.value ? Number(event.currentTarget.value) : null)
            }
            data={[
              { value: '', label: defaultBase },
              ...others.map((other) => ({ value: String(other.version), label: t.otherBase(other.version) })),
            ]}
            w={360}
          />
        )}
        {body}
      </Stack>
    </section>
  );
}
