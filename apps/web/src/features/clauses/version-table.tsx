import { Badge, Button, Group, Table, Text, Title } from '@mantine/core';
import { type ClauseDetail, formatDateTime } from '@vertragsgenerator/domain';
import { clauseTexts } from './texts';

const t = clauseTexts.clause;

/** The id of `Neue Version`, which takes the focus back when the editor is closed. */
export const NEW_VERSION_BUTTON = 'new-clause-version';

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

/** Every version of a clause, newest first, with its status and problems, each to look at. */
export function VersionTable({
  clause,
  selected,
  onSelect,
  writing,
  onWrite,
}: {
  clause: ClauseDetail;
  selected: number | undefined;
  onSelect: (version: number) => void;
  /** The editor of a new version is open. */
  writing: boolean;
  onWrite: () => void;
}) {
  return (
    <section aria-labelledby="versions-heading">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h3" id="versions-heading">
          {t.versions}
        </Title>
        {!writing && selected !== undefined && (
          <Button id={NEW_VERSION_BUTTON} onClick={onWrite}>
            {t.newVersion}
          </Button>
        )}
      </Group>
      <Table.ScrollContainer minWidth={860}>
        <Table aria-labelledby="versions-heading" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.version}</Table.Th>
              <Table.Th>{t.status}</Table.Th>
              <Table.Th>{t.comment}</Table.Th>
              <Table.Th>{t.saved}</Table.Th>
              <Table.Th>{t.publishedColumn}</Table.Th>
              <Table.Th>{t.actions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {clause.versions.map((version) => {
              const viewing = version.version === selected;
              return (
                <Table.Tr
                  key={version.version}
                  aria-current={viewing ? 'true' : undefined}
                  bg={viewing ? 'var(--mantine-color-blue-light)' : undefined}
                >
                  <Table.Td>{version.version}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <Badge color={clauseTexts.statusColors[version.status]} variant="light">
                        {version.status}
                      </Badge>
                      {version.problems.length > 0 && (
                        <Badge color="red" variant="light">
                          {t.problems(version.problems.length)}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{version.comment || '–'}</Text>
                    {version.publishComment && (
                      <Text size="sm" c="dimmed">
                        {t.publishComment(version.publishComment)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <ByWhen who={version.createdBy} when={version.createdAt} />
                  </Table.Td>
                  <Table.Td>
                    <ByWhen who={version.publishedBy} when={version.publishedAt} />
                  </Table.Td>
                  <Table.Td>
                    <Button
                      variant={viewing ? 'filled' : 'default'}
                      size="xs"
                      onClick={() => onSelect(version.version)}
                      aria-label={t.reviewLabel(version.version)}
                    >
                      {t.review}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </section>
  );
}
