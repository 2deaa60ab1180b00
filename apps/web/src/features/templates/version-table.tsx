import { Badge, Group, Table, Text, Title } from '@mantine/core';
import { formatDateTime, type TemplateDetail } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { downloadFile } from '@/lib/download';
import { versionFile } from './api';
import { templateTexts } from './texts';
import { ViewAndDownload } from './view-and-download';

const t = templateTexts.template;

/** Every version of a template, newest first, each to look at and to download. */
export function VersionTable({
  template,
  selected,
  onSelect,
}: {
  template: TemplateDetail;
  selected: number | undefined;
  onSelect: (version: number) => void;
}) {
  const [downloadFailed, setDownloadFailed] = useState(false);
  async function download(version: number) {
    setDownloadFailed(false);
    try {
      downloadFile(
        await versionFile(template.name, version),
        template.name.replace(/\.docx$/, `-v${version}.docx`),
      );
    } catch {
      setDownloadFailed(true);
    }
  }

  return (
    <section aria-labelledby="versions-heading">
      <Title order={2} size="h3" id="versions-heading" mb="xs">
        {t.versions}
      </Title>
      <Table.ScrollContainer minWidth={860}>
        <Table aria-labelledby="versions-heading" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.version}</Table.Th>
              <Table.Th>{t.status}</Table.Th>
              <Table.Th>{t.comment}</Table.Th>
              <Table.Th>{t.uploaded}</Table.Th>
              <Table.Th>{t.publishedColumn}</Table.Th>
              <Table.Th>{t.actions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {template.versions.map((version) => (
              <Table.Tr
                key={version.version}
                aria-current={version.version === selected ? 'true' : undefined}
                bg={version.version === selected ? 'var(--mantine-color-blue-light)' : undefined}
              >
                <Table.Td>{version.version}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    <Badge color={templateTexts.statusColors[version.status]} variant="light">
                      {version.status}
                    </Badge>
                    {version.problems.length > 0 && (
                      <Badge color="red" variant="light">
                        {t.problems(version.problems.length)}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{version.comment || '–'}</Table.Td>
                <Table.Td>
                  <Text size="sm">{version.createdBy}</Text>
                  <Text size="sm" c="dimmed">
                    {formatDateTime(new Date(version.createdAt))}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {version.publishedAt ? (
                    <>
                      <Text size="sm">{version.publishedBy}</Text>
                      <Text size="sm" c="dimmed">
                        {formatDateTime(new Date(version.publishedAt))}
                      </Text>
                    </>
                  ) : (
                    '–'
                  )}
                </Table.Td>
                <Table.Td>
                  <ViewAndDownload
                    viewing={version.version === selected}
                    viewText={t.review}
                    viewLabel={t.reviewLabel(version.version)}
                    onView={() => onSelect(version.version)}
                    downloadLabel={t.downloadLabel(version.version)}
                    onDownload={() => void download(version.version)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <div aria-live="polite">
        {downloadFailed && (
          <Text c="red.8" size="sm">
            {t.downloadFailed}
          </Text>
        )}
      </div>
    </section>
  );
}
