import { Alert, List, Paper, Stack, Text, Title } from '@mantine/core';
import { type ClauseDetail, type ClauseVersion, formatDateTime } from '@vertragsgenerator/domain';
import { PublishSection } from '@/components/version-library';
import { clauseListQueryOptions, clauseQueryOptions, publishVersion } from './api';
import { ClauseComparison } from './clause-comparison';
import { ClauseTrial } from './clause-trial';
import { clauseTexts } from './texts';
import { VersionContent } from './version-content';

const t = clauseTexts.review;

/** What the server found in the version, each problem with its place; any one blocks publishing. */
function CheckResult({ version }: { version: ClauseVersion }) {
  if (version.problems.length === 0) return <Alert color="green">{t.noProblems}</Alert>;
  return (
    <Alert color="red" title={t.problemsTitle(version.problems.length)}>
      <List spacing="xs">
        {version.problems.map((problem, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a version's problems never change
          <List.Item key={index}>
            <strong>{problem.place ?? t.wholeClause}: </strong>
            {problem.message}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

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
        <section aria-labelledby="check-heading">
          <Title order={3} size="h4" id="check-heading" mb="xs">
            {t.checkHeading}
          </Title>
          <CheckResult version={version} />
        </section>
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
