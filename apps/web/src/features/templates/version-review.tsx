import { Code, Paper, Stack, Title } from '@mantine/core';
import type { TemplateCheckProblem, TemplateDetail, TemplateVersion } from '@vertragsgenerator/domain';
import { CheckSection, PublishSection } from '@/components/version-library';
import { publishVersion, templateListQueryOptions, templateQueryOptions } from './api';
import { TextComparison } from './text-comparison';
import { templateTexts } from './texts';
import { VersionMarks } from './version-marks';
import { VersionTrial } from './version-trial';

const t = templateTexts.review;

/** A problem the check found with its place and, for a typo, what it likely means. */
function Problem({ problem }: { problem: TemplateCheckProblem }) {
  return (
    <>
      {problem.place && <strong>{problem.place}: </strong>}
      {problem.tag && <Code>{problem.tag}</Code>}
      {problem.tag && ' – '}
      {problem.message}
      {problem.suggestion && (
        <>
          {' '}
          <strong>{t.meant(problem.suggestion)}</strong>
        </>
      )}
    </>
  );
}

/**
 * One version under review: the check, what changed against the published text, the trial on a
 * deal, the paragraphs whose change needs Freigabe, and publishing it — or, for a version published
 * before, publishing it again (rolling back).
 */
export function VersionReview({ template, version }: { template: TemplateDetail; version: TemplateVersion }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="review-heading">
      <Stack>
        <Title order={2} size="h3" id="review-heading">
          {t.heading(version.version)}
        </Title>
        <CheckSection problems={version.problems} noProblems={t.noProblems}>
          {(problem) => <Problem problem={problem} />}
        </CheckSection>
        <TextComparison
          name={template.name}
          version={version.version}
          published={template.publishedVersion}
        />
        {version.problems.length === 0 && <VersionTrial name={template.name} version={version.version} />}
        <VersionMarks name={template.name} version={version.version} />
        <PublishSection
          version={version}
          published={template.publishedVersion}
          intro={t.publishIntro}
          publish={(publication) => publishVersion(template.name, version.version, publication)}
          recordQueryKey={templateQueryOptions(template.name).queryKey}
          listQueryKey={templateListQueryOptions.queryKey}
        />
      </Stack>
    </Paper>
  );
}
