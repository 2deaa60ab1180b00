import { Paper, Stack, Text, Title } from '@mantine/core';
import { type ClauseDetail, type ClauseVersion, formatDateTime } from '@vertragsgenerator/domain';
import { CheckSection, PublishSection } from '@/components/version-library';
import { clauseListQueryOptions, clauseQueryOptions, publishVersion } from './api';
import { ClauseComparison } from './clause-comparison';
import { ClauseTrial } from './clause-trial';
import { clauseTexts } from './texts';
import { VersionContent } from './version-content';

const t = clauseTexts.review;

/**
 * One version under review: who saved it and why, the check, its content, what changed, a trial on a
 * deal, and publishing it — or, for a version published before, publishing it again (rolling back).
 */
export function VersionReview({ clause, version }: { clause: ClauseDetail; version: ClauseVersion }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="review-heading">
      <Stack>
        <div>
          <Title order={2} size="h3" id="review-heading">
            {t.heading(version.version)}
          </Title>
          <Text size="sm" c="dimmed">
            {t.meta(version.createdBy, formatDateTime(new Date(version.createdAt)))}
            {version.comment && ` – „${version.comment}“`}
          </Text>
          {version.publishedBy && version.publishedAt && (
            <Text size="sm" c="dimmed">
              {t.publishedMeta(version.publishedBy, formatDateTime(new Date(version.publishedAt)))}
              {version.publishComment && ` – „${version.publishComment}“`}
            </Text>
          )}
        </div>
        <CheckSection problems={version.problems} noProblems={t.noProblems}>
          {(problem) => (
            <>
              <strong>{problem.place ?? t.wholeClause}: </strong>
              {problem.message}
            </>
          )}
        </CheckSection>
        <VersionContent version={version} />
        <ClauseComparison clause={clause} version={version.version} />
        {version.problems.length === 0 && <ClauseTrial clauseKey={clause.key} version={version.version} />}
        <PublishSection
          version={version}
          published={clause.publishedVersion}
          intro={clauseTexts.publish.intro}
          publish={(publication) => publishVersion(clause.key, version.version, publication)}
          recordQueryKey={clauseQueryOptions(clause.key).queryKey}
          listQueryKey={clauseListQueryOptions.queryKey}
        />
      </Stack>
    </Paper>
  );
}
