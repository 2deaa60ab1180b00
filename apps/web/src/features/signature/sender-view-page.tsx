import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { EnvelopeView } from '@vertragsgenerator/domain';
import { Link, useParams } from 'react-router';
import { DocumentViewer } from '@/components/document-viewer';
import { runDownload } from '@/components/download-button';
import { EnvelopeStatusBadge } from '@/components/envelope-status-badge';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { documentNegotiationPath, documentPath } from '@/lib/paths';
import { texts } from '@/texts';
import { downloadEnvelopeDocument, envelopeQueryOptions, loadEnvelopeDocument } from './api';
import { EnvelopeDraft } from './envelope-draft';
import { EnvelopeProgress } from './envelope-progress';

/**
 * The sender's view of an e-signature envelope (`/signatur/:envelopeId`): the document, then either
 * the draft to complete and send, or how far the signers got.
 */
export function SenderViewPage() {
  const { envelopeId = '' } = useParams();
  const envelope = useQuery(envelopeQueryOptions(envelopeId));
  if (envelope.data) {
    return (
      <Stack maw={1000}>
        {/* A failed refresh keeps showing the last known state, with the reason it may be outdated. */}
        {envelope.isError && <Alert color="yellow">{errorMessage(envelope.error)}</Alert>}
        <Envelope envelope={envelope.data} />
      </Stack>
    );
  }
  if (envelope.isError) return <Alert color="red">{errorMessage(envelope.error)}</Alert>;
  return <SectionLoader />;
}

/** The editor page's negotiation, where the draft's document goes to the counterparty before signing. */
const NEGOTIATION_LINK = 'Zur Prüfung an die Gegenseite';

function Envelope({ envelope }: { envelope: EnvelopeView }) {
  // A retention rule may have deleted the document: the envelope and its history stay readable.
  const { fileName } = envelope;
  return (
    <Stack>
      <Stack gap={4}>
        <Group gap="sm">
          <Title order={1}>{envelope.subject || fileName || texts.envelope.documentLabel}</Title>
          <EnvelopeStatusBadge status={envelope.status} />
        </Group>
        <Text>
          <Text span fw={600}>
            {texts.envelope.documentLabel}:
          </Text>{' '}
          {fileName ?? texts.envelope.documentDeleted}
          {' · '}
          <Text span fw={600}>
            {texts.envelope.matchLabel}:
          </Text>{' '}
          {envelope.matchId}
        </Text>
        {/* A draft's text may still change (a declined approval asks for that); it opens in a tab of its own. */}
        {envelope.status === 'created' && fileName !== null && (
          <Group>
            <Button
              component="a"
              href={documentPath(envelope.documentId)}
              target="_blank"
              rel="noopener"
              size="xs"
              variant="default"
            >
              {texts.envelope.editDocument}
            </Button>
            <Anchor component={Link} to={documentNegotiationPath(envelope.documentId)} size="sm">
              {NEGOTIATION_LINK}
            </Anchor>
          </Group>
        )}
      </Stack>
      {fileName === null ? (
        <Alert color="gray">{texts.envelope.documentDeletedNotice}</Alert>
      ) : (
        <DocumentViewer
          documentKey={`envelope:${envelope.id}:${envelope.documentSha256}`}
          pdf={envelope.pdfAvailable}
          load={(signal) => loadEnvelopeDocument(envelope.id, envelope.pdfAvailable, signal)}
          onDownload={() => void runDownload(() => downloadEnvelopeDocument(envelope.id, fileName))}
        />
      )}
      {envelope.status === 'created' && fileName !== null ? (
        // Keyed: another envelope starts a fresh draft, while a refetch of this one never resets the inputs.
        <EnvelopeDraft key={envelope.id} envelope={envelope} />
      ) : (
        <EnvelopeProgress envelope={envelope} />
      )}
    </Stack>
  );
}
