import { Group, Stack, Table, Text, Title } from '@mantine/core';
import {
  ENVELOPE_EVENT_LABELS,
  type EnvelopeRecipient,
  type EnvelopeView,
  formatDateTime,
  OPEN_ENVELOPE_STATUSES,
  RECIPIENT_ROLE_LABELS,
  RECIPIENT_STATUS_LABELS,
} from '@vertragsgenerator/domain';
import { DownloadButton } from '@/components/download-button';
import { SignerActions } from '@/components/signer-actions';
import { VoidEnvelopeButton } from '@/components/void-envelope-button';
import { downloadCertificate } from '@/lib/envelopes';
import { texts } from '@/texts';
import { downloadEnvelopeDocument } from './api';
import { useEnvelopeUpdater } from './use-envelope-updater';

/** A signer who waits to sign: until when their link works, a reminder, and a new link on request. */
function SigningLink({ envelope, recipient }: { envelope: EnvelopeView; recipient: EnvelopeRecipient }) {
  const updateEnvelope = useEnvelopeUpdater(envelope.id);
  const waiting = recipient.status === 'sent' || recipient.status === 'opened';
  if (envelope.status !== 'sent' || !waiting || !recipient.linkExpiresAt) return null;
  const expiresAt = new Date(recipient.linkExpiresAt);
  const date = formatDateTime(expiresAt);
  return (
    <Stack gap={4} align="flex-start">
      <Text size="sm" c={expiresAt <= new Date() ? 'red.9' : undefined}>
        {expiresAt <= new Date() ? texts.envelope.linkExpired(date) : texts.envelope.linkValidUntil(date)}
      </Text>
      <SignerActions envelopeId={envelope.id} signer={recipient} onChanged={updateEnvelope} />
    </Stack>
  );
}

/** A sent or closed envelope, read-only: who signed when, what happened, and its files. */
export function EnvelopeProgress({ envelope }: { envelope: EnvelopeView }) {
  const updateEnvelope = useEnvelopeUpdater(envelope.id);
  const recipients = [...envelope.recipients].sort((a, b) => a.routingOrder - b.routingOrder);
  // Null once a retention rule deleted the document and its files: nothing left to download.
  const { fileName } = envelope;
  return (
    <Stack>
      <Group>
        {fileName !== null && (
          <DownloadButton download={() => downloadEnvelopeDocument(envelope.id, fileName)}>
            {texts.envelope.downloadDocument}
          </DownloadButton>
        )}
        {envelope.status === 'completed' && fileName !== null && (
          <DownloadButton download={() => downloadCertificate(envelope.id, fileName)}>
            {texts.envelope.downloadCertificate}
          </DownloadButton>
        )}
        {/* A sent envelope can still be withdrawn; a draft shows this with its form. */}
        {OPEN_ENVELOPE_STATUSES.includes(envelope.status) && (
          <VoidEnvelopeButton envelopeId={envelope.id} onChanged={updateEnvelope} />
        )}
      </Group>

      <Title order={2}>{texts.envelope.recipientsHeading}</Title>
      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-label={texts.envelope.recipientsHeading}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{texts.envelope.routingOrder}</Table.Th>
              <Table.Th>{texts.envelope.role}</Table.Th>
              <Table.Th>{texts.envelope.name}</Table.Th>
              <Table.Th>{texts.envelope.email}</Table.Th>
              <Table.Th>{texts.envelope.recipientStatus}</Table.Th>
              <Table.Th>{texts.envelope.signedAt}</Table.Th>
              <Table.Th>{texts.envelope.declineReason}</Table.Th>
              <Table.Th>{texts.envelope.link}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {recipients.map((recipient) => (
              <Table.Tr key={recipient.id}>
                <Table.Td>{recipient.routingOrder}</Table.Td>
                <Table.Td>{RECIPIENT_ROLE_LABELS[recipient.role]}</Table.Td>
                <Table.Td>{recipient.name}</Table.Td>
                <Table.Td>{recipient.email}</Table.Td>
                <Table.Td>{RECIPIENT_STATUS_LABELS[recipient.status]}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {recipient.signedAt ? formatDateTime(new Date(recipient.signedAt)) : ''}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{recipient.declineReason ?? ''}</Table.Td>
                <Table.Td>
                  <SigningLink envelope={envelope} recipient={recipient} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Title order={2}>{texts.envelope.eventsHeading}</Title>
      <Table.ScrollContainer minWidth={600}>
        <Table aria-label={texts.envelope.eventsHeading}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{texts.envelope.eventTime}</Table.Th>
              <Table.Th>{texts.envelope.eventType}</Table.Th>
              <Table.Th>{texts.envelope.eventActor}</Table.Th>
              <Table.Th>{texts.envelope.eventIp}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {envelope.events.map((event, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: events have no ID, and the server only appends
              <Table.Tr key={index}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(new Date(event.at))}</Table.Td>
                <Table.Td>
                  {ENVELOPE_EVENT_LABELS[event.type]}
                  {event.detail && (
                    <Text size="sm" c="dimmed">
                      {event.detail}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{event.actor || 'automatisch'}</Table.Td>
                <Table.Td>{event.ip ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
