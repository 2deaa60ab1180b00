import { Badge, Button, Group, Stack, Table, Title } from '@mantine/core';
import { formatByteSize, formatDateTime, type StoredDocument } from '@vertragsgenerator/domain';
import { useId } from 'react';
import { DownloadButton } from '@/components/download-button';
import { texts } from '@/texts';
import { downloadDocumentVersion } from './api';

export interface VersionListProps {
  document: StoredDocument;
  /** The version the editor shows. */
  shownVersion: number | undefined;
  onOpen: (version: number) => void;
}

/** Every stored version of the document, newest first, to open in the editor or download. */
export function VersionList({ document, shownVersion, onOpen }: VersionListProps) {
  const headingId = useId();
  const newest = document.versions[0]?.version;
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={2} id={headingId}>
        {texts.editor.versions}
      </Title>
      <Table.ScrollContainer minWidth={700}>
        <Table striped aria-labelledby={headingId} verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{texts.editor.version}</Table.Th>
              <Table.Th>{texts.editor.savedBy}</Table.Th>
              <Table.Th>{texts.editor.savedAt}</Table.Th>
              <Table.Th>{texts.editor.size}</Table.Th>
              <Table.Th>{texts.editor.actions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {document.versions.map((entry) => (
              <Table.Tr key={entry.version}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    {entry.version}
                    {entry.version === newest && (
                      <Badge size="sm" variant="light">
                        {texts.editor.latest}
                      </Badge>
                    )}
                    {entry.version === shownVersion && (
                      <Badge size="sm" variant="outline">
                        {texts.editor.shown}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{entry.createdBy}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(new Date(entry.createdAt))}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatByteSize(entry.size)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      disabled={entry.version === shownVersion}
                      onClick={() => onOpen(entry.version)}
                    >
                      {texts.editor.open}
                    </Button>
                    <DownloadButton
                      size="xs"
                      download={() => downloadDocumentVersion(document, entry.version)}
                    >
                      {texts.editor.download}
                    </DownloadButton>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
