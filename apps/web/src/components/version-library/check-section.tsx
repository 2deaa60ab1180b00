import { Alert, List, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { versionLibraryTexts } from './texts';

const t = versionLibraryTexts.check;

/**
 * `Prüfung`: what the server's check found in a version, each problem shown by `children`; any one of them
 * blocks publishing.
 */
export function CheckSection<P>({
  problems,
  noProblems,
  children,
}: {
  problems: readonly P[];
  /** Said when the check found nothing: what it looked at. */
  noProblems: string;
  children: (problem: P) => ReactNode;
}) {
  return (
    <section aria-labelledby="check-heading">
      <Title order={3} size="h4" id="check-heading" mb="xs">
        {t.heading}
      </Title>
      {problems.length === 0 ? (
        <Alert color="green">{noProblems}</Alert>
      ) : (
        <Alert color="red" title={t.problemsTitle(problems.length)}>
          <List spacing="xs">
            {problems.map((problem, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a version's problems never change
              <List.Item key={index}>{children(problem)}</List.Item>
            ))}
          </List>
        </Alert>
      )}
    </section>
  );
}
