import { Alert, Button, Code, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { TemplateDetail, TemplateVersion } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { PublishDialog } from './publish-dialog';
import { TextComparison } from './text-comparison';
import { templateTexts } from './texts';
import { VersionMarks } from './version-marks';
import { VersionTrial } from './version-trial';

const t = templateTexts.review;

/** What the server's check found, each problem with its place and, for a typo, what it likely means. */
function CheckResult({ version }: { version: TemplateVersion }) {
  if (version.problems.length === 0) {
    return <Alert color="green">{t.noProblems}</Alert>;
  }
  return (
    <Alert color="red" title={t.problemsTitle(version.problems.length)}>
      <List spacing="xs">
        {version.problems.map((problem, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a version's problems never change
          <List.Item key={index}>
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
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/**
 * One version under review: the check, what changed against the published text, the trial on a
 * deal, the paragraphs whose change needs Freigabe, and publishing it — or, for a version published
 * before, publishing it again (rolling back).
 */
export function VersionReview({ template, version }: { template: TemplateDetail; version: TemplateVersion }) {
  const [publishing, setPublishing] = useState(false);
  const [published, setPublished] = useState<number | undefined>();
  const isPublished = version.version === template.publishedVersion;
  const publishable = !isPublished && version.problems.length === 0;
  const publishLabel = version.status === 'ersetzt' ? t.rollback(version.version) : t.publish;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="review-heading">
      <Stack>
        <Title order={2} size="h3" id="review-heading">
          {t.heading(version.version)}
        </Title>
        <section aria-labelledby="check-heading">
          <Title order={3} size="h4" id="check-heading" mb="xs">
            {t.checkHeading}
          </Title>
          <CheckResult version={version} />
        </section>
        <TextComparison
          name={template.name}
          version={version.version}
          published={template.publishedVersion}
        />
        {version.problems.length === 0 && <VersionTrial name={template.name} version={version.version} />}
        <VersionMarks name={template.name} version={version.version} />
        <section aria-labelledby="publish-heading">
          <Title order={3} size="h4" id="publish-heading" mb="xs">
            {t.publishHeading}
          </Title>
          <div aria-live="polite">
            {published === version.version && isPublished && (
              <Alert color="green" mb="xs">
                {templateTexts.publish.done(version.version)}
              </Alert>
            )}
          </div>
          {isPublished ? (
            <Text>{t.isPublished}</Text>
          ) : publishable ? (
            <Group>
              <Text size="sm">{t.publishIntro(version.version, template.publishedVersion)}</Text>
              <Button onClick={() => setPublishing(true)}>{publishLabel}</Button>
            </Group>
          ) : (
            <Text>{t.cannotPublish}</Text>
          )}
        </section>
      </Stack>
      <PublishDialog
        name={template.name}
        version={version.version}
        replaces={template.publishedVersion}
        title={
          version.status === 'ersetzt'
            ? t.rollback(version.version)
            : templateTexts.publish.title(version.version)
        }
        opened={publishing}
        onClose={() => setPublishing(false)}
        onPublished={() => {
          setPublishing(false);
          setPublished(version.version);
        }}
      />
    </Paper>
  );
}
