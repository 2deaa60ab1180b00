import { Alert, Button, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DOCUMENT_READ_LABELS, formatDateTime, isLegal } from '@vertragsgenerator/domain';
import { useId, useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { verifyUser } from '@/lib/auth/session-api';
import { privacyTexts as t } from './privacy-texts';
import { documentReadsQueryOptions, matchDeletionsQueryOptions } from './records-api';

/** „Zugriffe“: who read the document's files; for legal staff and administrators, as the server admits. */
export function DocumentReadsButton({ documentId, fileName }: { documentId: string; fileName: string }) {
  // One question for every row of the history: who is signed in, as the server knows it now.
  const user = useQuery({ queryKey: ['session-user'], queryFn: verifyUser, staleTime: 60_000 });
  const [open, setOpen] = useState(false);
  if (!user.data || !(isLegal(user.data.permission) || user.data.administrator)) return null;
  return (
    <>
      <Button size="xs" variant="default" onClick={() => setOpen(true)}>
        {t.readsButton}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t.readsTitle(fileName)} size="lg">
        {open && <DocumentReads documentId={documentId} />}
      </Modal>
    </>
  );
}

function DocumentReads({ documentId }: { documentId: string }) {
  const reads = useQuery(documentReadsQueryOptions(documentId));
  if (reads.isPending) return <SectionLoader />;
  if (reads.isError) return <Alert color="red">{errorMessage(reads.error)}</Alert>;
  if (reads.data.length === 0) return <Text c="dimmed">{t.readsEmpty}</Text>;
  return (
    <Table striped>
      <Table.Caption>{t.readsCaption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t.when}</Table.Th>
          <Table.Th>{t.who}</Table.Th>
          <Table.Th>{t.what}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {reads.data.map((read, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: reads have no ID here; the list only ever changes as a whole
          <Table.Tr key={index}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(new Date(read.at))}</Table.Td>
            <Table.Td>{read.actor}</Table.Td>
            <Table.Td>
              {DOCUMENT_READ_LABELS[read.kind]}
              {read.version !== null && t.version(read.version)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** What of the match was deleted, by which rule: the history stays truthful after a deletion. */
export function DeletedDocuments({ matchId }: { matchId: string }) {
  const deletions = useQuery(matchDeletionsQueryOptions(matchId));
  const headingId = useId();
  if (!deletions.data || deletions.data.length === 0) return null;
  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs">
      <Title order={3} id={headingId}>
        {t.deletedHeading}
      </Title>
      <Text size="sm">{t.deletedIntro}</Text>
      <Table.ScrollContainer minWidth={700}>
        <Table striped aria-labelledby={headingId}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.deletedWhat}</Table.Th>
              <Table.Th>{t.deletedRule}</Table.Th>
              <Table.Th>{t.deletedAt}</Table.Th>
              <Table.Th>SHA-256</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deletions.data.map((record) => (
              <Table.Tr key={`${record.kind}-${record.subjectId}`}>
                <Table.Td>
                  {t.deletedKind[record.kind] ?? record.kind}
                  {record.docKey && (
                    <Text size="xs" c="dimmed">
                      {record.docKey}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{record.ruleLabel}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(new Date(record.at))}</Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {record.sha256}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
