import { Badge, Button, Group, Table, Text, Title } from '@mantine/core';
import { formatDateTime, type TemplateVersionStatus } from '@vertragsgenerator/domain';
import type { ReactNode } from 'react';
import { versionLibraryTexts } from './texts';

const t = versionLibraryTexts.versions;

/** What the table shows of a version. */
export interface ListedVersion {
  version: number;
  status: TemplateVersionStatus;
  problems: readonly unknown[];
  comment: string;
  createdBy: string;
  createdAt: string;
  publishedBy: string | null;
  publishedAt: string | null;
}

/** Who did it and when, on two lines. */
function ByWhen({ who, when }: { who: string | null; when: string | null }) {
  if (!when) return <>–</>;
  return (
    <>
      <Text size="sm">{who}</Text>
      <Text size="sm" c="dimmed">
        {formatDateTime(new Date(when))}
      </Text>
    </>
  );
}

/**
 * Every version of a template or a clause, newest first, with its status and problems, each to look at:
 * the one looked at (`selected`) is marked, and `Ansehen` selects another.
 */
export function VersionTable<V extends ListedVersion>({
  versions,
  selected,
  onSelect,
  createdLabel,
  headingAction,
  comment = (version) => version.comment || '–',
  moreActions,
  children,
}: {
  versions: readonly V[];
  selected: number | undefined;
  onSelect: (version: number) => void;
  /** The heading of the column saying who made the version and when: `Hochgeladen`, `Gespeichert`. */
  createdLabel: string;
  /** Beside the heading, e.g. the button that starts a new version. */
  headingAction?: ReactNode;
  /** The comment's cell; by default the comment, or a dash. */
  comment?: (version: V) => ReactNode;
  /** Actions after `Ansehen` in a version's row, e.g. its download. */
  moreActions?: (version: V) => ReactNode;
  /** Below the table, e.g. what went wrong with an action. */
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby="versions-heading">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h3" id="versions-heading">
          {t.heading}
        </Title>
        {headingAction}
      </Group>
      <Table.ScrollContainer minWidth={860}>
        <Table aria-labelledby="versions-heading" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.version}</Table.Th>
              <Table.Th>{t.status}</Table.Th>
              <Table.Th>{t.comment}</Table.Th>
              <Table.Th>{createdLabel}</Table.Th>
              <Table.Th>{t.publishedColumn}</Table.Th>
              <Table.Th>{t.actions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {versions.map((version) => {
              const viewing = version.version === selected;
              const review = (
                <Button
                  variant={viewing ? 'filled' : 'default'}
                  size="xs"
                  onClick={() => onSelect(version.version)}
                  aria-label={t.reviewLabel(version.version)}
                >
                  {t.review}
                </Button>
              );
              return (
                <Table.Tr
                  key={version.version}
                  aria-current={viewing ? 'true' : undefined}
                  bg={viewing ? 'var(--mantine-color-blue-light)' : undefined}
                >
                  <Table.Td>{version.version}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <Badge color={versionLibraryTexts.statusColors[version.status]} variant="light">
                        {version.status}
                      </Badge>
                      {version.problems.length > 0 && (
                        <Badge color="red" variant="light">
                          {t.problems(version.problems.length)}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{comment(version)}</Table.Td>
                  <Table.Td>
                    <ByWhen who={version.createdBy} when={version.createdAt} />
                  </Table.Td>
                  <Table.Td>
                    <ByWhen who={version.publishedBy} when={version.publishedAt} />
                  </Table.Td>
                  <Table.Td>
                    {moreActions ? (
                      <Group gap="xs" wrap="nowrap">
                        {review}
                        {moreActions(version)}
                      </Group>
                    ) : (
                      review
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {children}
    </section>
  );
}
