import { Button, Group, Stack, Table, Text } from '@mantine/core';
import {
  ENVELOPE_EVENT_LABELS,
  formatDateTime,
  type OverviewEnvelope,
  RECIPIENT_STATUS_LABELS,
} from '@vertragsgenerator/domain';
import { Link } from 'react-router';
import { DownloadButton } from '@/components/download-button';
import { EnvelopeSealText } from '@/components/envelope-seal';
import { SignerActions } from '@/components/signer-actions';
import { VoidEnvelopeButton } from '@/components/void-envelope-button';
import { downloadSignedPdf } from '@/lib/envelopes';
import { envelopePath } from '@/lib/paths';
import { texts } from '@/texts';
import { OverviewStatusBadge } from './overview-status-badge';
import { overviewTexts as t } from './texts';

const waiting = (status: string) => status === 'sent' || status === 'opened';

/**
 * One envelope in the overview: its match and customer, document, status, each signer's progress,
 * the last event, and what this user may do with it. `onChanged`: an action changed the envelope.
 */
export function OverviewRow({ envelope, onChanged }: { envelope: OverviewEnvelope; onChanged: () => void }) {
  const signed = envelope.signers.filter((s) => s.status === 'signed').length;
  const open = envelope.status !== 'draft' && envelope.mayChange;
  const { fileName } = envelope;
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={500} style={{ whiteSpace: 'nowrap' }}>
          {envelope.matchId}
        </Text>
        <Text size="sm">{envelope.customer}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" c={fileName === null ? 'dimmed' : undefined}>
          {fileName ?? t.documentDeleted}
        </Text>
        <Text size="sm" c="dimmed">
          {t.createdBy(envelope.createdBy)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Stack gap={6} align="flex-start">
          <OverviewStatusBadge status={envelope.status} />
          {envelope.seal && <EnvelopeSealText seal={envelope.seal} provider={envelope.provider} />}
        </Stack>
      </Table.Td>
      <Table.Td>
        {envelope.signers.length === 0 ? (
          <Text size="sm">{t.noSigners}</Text>
        ) : (
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              {t.progress(signed, envelope.signers.length)}
            </Text>
            {envelope.signers.map((signer) => (
              <Stack key={signer.id} gap={2}>
                <Text size="sm">
                  {signer.name} · {RECIPIENT_STATUS_LABELS[signer.status]}
                </Text>
                {open && waiting(signer.status) && (
                  <SignerActions envelopeId={envelope.id} signer={signer} onChanged={onChanged} />
                )}
              </Stack>
            ))}
          </Stack>
        )}
      </Table.Td>
      <Table.Td>
        {envelope.lastEvent && (
          <>
            <Text size="sm">{ENVELOPE_EVENT_LABELS[envelope.lastEvent.type]}</Text>
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatDateTime(new Date(envelope.lastEvent.at))}
            </Text>
            <Text size="sm" c="dimmed">
              {envelope.lastEvent.actor || t.automatic}
            </Text>
          </>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            component={Link}
            to={envelopePath(envelope.id)}
            aria-label={t.openFor(envelope.subject)}
          >
            {t.open}
          </Button>
          {envelope.signedPdfAvailable && fileName !== null && (
            <DownloadButton
              size="xs"
              aria-label={t.signedPdfFor(envelope.subject)}
              download={() => downloadSignedPdf(envelope.id, fileName)}
            >
              {texts.history.signedPdf}
            </DownloadButton>
          )}
          {envelope.mayChange && (
            <VoidEnvelopeButton
              envelopeId={envelope.id}
              size="xs"
              label={t.voidFor(envelope.subject)}
              onChanged={onChanged}
            />
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
