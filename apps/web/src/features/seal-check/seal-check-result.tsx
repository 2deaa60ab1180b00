import { Alert, Anchor, type MantineColor, Stack, Table, Text } from '@mantine/core';
import {
  formatDateTime,
  RECIPIENT_ROLE_LABELS,
  type SealCheck,
  type SealCheckVerdict,
} from '@vertragsgenerator/domain';
import { Link } from 'react-router';
import { EnvelopeSealText } from '@/components/envelope-seal';
import { envelopePath } from '@/lib/paths';
import { sealCheckTexts as t } from './texts';

const COLORS: Record<SealCheckVerdict, MantineColor> = {
  sealed: 'green',
  unknown_envelope: 'yellow',
  changed: 'red',
  other_signature: 'red',
  unsealed: 'gray',
};

const dateTime = (iso: string | null) => (iso ? formatDateTime(new Date(iso)) : '–');

/** What Prüfen found: the verdict in words and, for one of our sealed PDFs, its envelope and signers. */
export function SealCheckResult({ result, fileName }: { result: SealCheck; fileName: string }) {
  const verdict = t.verdicts[result.verdict];
  const { envelope, signature } = result;
  return (
    <Stack>
      <Alert color={COLORS[result.verdict]} title={verdict.title} role="status">
        <Stack gap={4}>
          <Text size="sm">{verdict.text}</Text>
          <Text size="sm">{t.checkedFile(fileName)}</Text>
          {signature?.commonName && result.verdict !== 'sealed' && (
            <Text size="sm">{t.signedBy(signature.commonName)}</Text>
          )}
        </Stack>
      </Alert>
      {envelope && (
        <Stack gap="xs">
          <Table variant="vertical" withTableBorder aria-label={t.document}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={180}>{t.match}</Table.Th>
                <Table.Td>{envelope.matchId}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t.document}</Table.Th>
                <Table.Td>
                  <Anchor component={Link} to={envelopePath(envelope.id)}>
                    {envelope.fileName}
                  </Anchor>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t.completedAt}</Table.Th>
                <Table.Td>{dateTime(envelope.completedAt)}</Table.Td>
              </Table.Tr>
              {/* No level: DocuSign's document, or one sealed before levels were recorded. */}
              {envelope.sealLevel && (
                <Table.Tr>
                  <Table.Th>{t.seal}</Table.Th>
                  <Table.Td>
                    <EnvelopeSealText seal={{ state: 'sealed', level: envelope.sealLevel }} />
                  </Table.Td>
                </Table.Tr>
              )}
              <Table.Tr>
                <Table.Th>{t.sha256}</Table.Th>
                <Table.Td style={{ wordBreak: 'break-all' }}>{result.sha256}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Table withTableBorder aria-label={t.signers}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t.role}</Table.Th>
                <Table.Th>{t.name}</Table.Th>
                <Table.Th>{t.email}</Table.Th>
                <Table.Th>{t.signedAt}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {envelope.signers.map((signer) => (
                <Table.Tr key={`${signer.role}-${signer.email}`}>
                  <Table.Td>{RECIPIENT_ROLE_LABELS[signer.role]}</Table.Td>
                  <Table.Td>{signer.name}</Table.Td>
                  <Table.Td>{signer.email}</Table.Td>
                  <Table.Td>{dateTime(signer.signedAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Stack>
  );
}
