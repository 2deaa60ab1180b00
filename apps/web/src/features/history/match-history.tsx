import { Alert, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import {
  APPROVAL_STATUS_LABELS,
  formatDateTime,
  type HistoryEntry,
  RECIPIENT_STATUS_LABELS,
} from '@vertragsgenerator/domain';
import { useId } from 'react';
import { DownloadButton } from '@/components/download-button';
import { EnvelopeSealText } from '@/components/envelope-seal';
import { EnvelopeStatusBadge } from '@/components/envelope-status-badge';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { downloadCertificate, downloadSignedPdf } from '@/lib/envelopes';
import { documentPath, envelopePath } from '@/lib/paths';
import { texts } from '@/texts';
import { downloadDocument, useMatchHistory } from './api';
import { DeletedDocuments, DocumentReadsButton } from './document-records';

/** Every document made for a match, newest first, with how far its signing got. */
export function MatchHistory({ matchId }: { matchId: string }) {
  const history = useMatchHistory(matchId);
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={2} id={headingId}>
        {texts.history.heading}
      </Title>
      {history.isError ? (
        <Alert color="red">{errorMessage(history.error)}</Alert>
      ) : history.data === undefined ? (
        <SectionLoader />
      ) : history.data.length === 0 ? (
        <Text c="dimmed">{texts.history.empty}</Text>
      ) : (
        <HistoryTable entries={history.data} />
      )}
      <DeletedDocuments matchId={matchId} />
    </Stack>
  );
}

function HistoryTable({ entries }: { entries: readonly HistoryEntry[] }) {
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table striped aria-label={texts.history.heading} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{texts.history.document}</Table.Th>
            <Table.Th>{texts.history.createdBy}</Table.Th>
            <Table.Th>{texts.history.createdAt}</Table.Th>
            <Table.Th>{texts.history.status}</Table.Th>
            <Table.Th>{texts.history.version}</Table.Th>
            <Table.Th>{texts.history.actions}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.documentId}>
              <Table.Td>
                <Text size="sm">{entry.fileName}</Text>
                <Text size="xs" c="dimmed">
                  {entry.docKey}
                  {entry.templateVersion !== null &&
                    ` · ${texts.history.templateVersion(entry.templateVersion)}`}
                </Text>
              </Table.Td>
              <Table.Td>{entry.createdBy}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(new Date(entry.createdAt))}
              </Table.Td>
              <Table.Td>
                <EntryStatus entry={entry} />
              </Table.Td>
              <Table.Td>{entry.version ?? ''}</Table.Td>
              <Table.Td>
                <EntryActions entry={entry} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The newest approval request's status, where one was asked for. */
function ApprovalText({ status }: { status: HistoryEntry['approval'] }) {
  if (!status) return null;
  return (
    <Text size="xs" fw={600}>
      {status === 'open'
        ? texts.history.approvalOpen
        : texts.history.approval(APPROVAL_STATUS_LABELS[status])}
    </Text>
  );
}

function EntryStatus({ entry }: { entry: HistoryEntry }) {
  if (!entry.envelope) {
    const status = <Text size="sm">{texts.history.documentStatus[entry.status]}</Text>;
    if (!entry.approval) return status;
    return (
      <Stack gap={4} align="flex-start">
        {status}
        <ApprovalText status={entry.approval} />
      </Stack>
    );
  }
  return (
    <Stack gap={4} align="flex-start">
      <EnvelopeStatusBadge status={entry.envelope.status} />
      <ApprovalText status={entry.envelope.approval} />
      {entry.envelope.seal && (
        <EnvelopeSealText seal={entry.envelope.seal} provider={entry.envelope.provider} />
      )}
      {entry.envelope.recipients.map((recipient, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: recipients have no ID here; the list only ever changes as a whole
        <Text size="xs" key={index}>
          {recipient.name}: {RECIPIENT_STATUS_LABELS[recipient.status]}
        </Text>
      ))}
    </Stack>
  );
}

function EntryActions({ entry }: { entry: HistoryEntry }) {
  const { envelope } = entry;
  return (
    // Wrapping: with five actions in one line the status column shrank until its badge was cut off.
    <Group gap="xs">
      {entry.status === 'ready' && (
        <>
          <NewTabButton href={documentPath(entry.documentId)}>{texts.history.openDocument}</NewTabButton>
          <DownloadButton size="xs" download={() => downloadDocument(entry)}>
            {texts.history.download}
          </DownloadButton>
        </>
      )}
      {envelope && <NewTabButton href={envelopePath(envelope.id)}>{texts.history.openEnvelope}</NewTabButton>}
      {envelope?.signedPdfAvailable && (
        <DownloadButton size="xs" download={() => downloadSignedPdf(envelope.id, entry.fileName)}>
          {texts.history.signedPdf}
        </DownloadButton>
      )}
      {envelope?.certificateAvailable && (
        <DownloadButton size="xs" download={() => downloadCertificate(envelope.id, entry.fileName)}>
          {texts.history.certificate}
        </DownloadButton>
      )}
      <DocumentReadsButton documentId={entry.documentId} fileName={entry.fileName} />
    </Group>
  );
}

/** Documents and envelopes open in a tab of their own: the history stays where the user left it. */
function NewTabButton({ href, children }: { href: string; children: string }) {
  return (
    <Button size="xs" variant="default" component="a" href={href} target="_blank" rel="noopener">
      {children}
    </Button>
  );
}
