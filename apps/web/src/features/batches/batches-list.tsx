import { Anchor, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@vertragsgenerator/domain';
import { Link } from 'react-router';
import { LoadFailed } from '@/components/load-failed';
import { SectionLoader } from '@/components/section-loader';
import { batchPath } from '@/lib/paths';
import { batchesQueryOptions } from './api';
import { BatchStatusBadge } from './batch-status-badge';
import { batchesTexts } from './texts';

const t = batchesTexts.list;

/** „Meine Serien“: the user's batches, newest first, each linking to its page. */
export function BatchesList() {
  const batches = useQuery(batchesQueryOptions());
  if (batches.isError) {
    return <LoadFailed title={t.loadFailed} error={batches.error} onRetry={() => void batches.refetch()} />;
  }
  if (!batches.data) return <SectionLoader />;
  if (batches.data.length === 0) return <Text>{t.empty}</Text>;
  return (
    <Table.ScrollContainer minWidth={700}>
      <Table aria-label={t.table} verticalSpacing="xs" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.title}</Table.Th>
            <Table.Th>{t.status}</Table.Th>
            <Table.Th>{t.createdAt}</Table.Th>
            <Table.Th ta="right">{t.done}</Table.Th>
            <Table.Th ta="right">{t.failed}</Table.Th>
            <Table.Th ta="right">{t.deals}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {batches.data.map((batch) => (
            <Table.Tr key={batch.id}>
              <Table.Td>
                <Anchor component={Link} to={batchPath(batch.id)}>
                  {batch.title}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <BatchStatusBadge status={batch.status} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(new Date(batch.createdAt))}
              </Table.Td>
              <Table.Td ta="right">{batch.counts.done.toLocaleString('de-DE')}</Table.Td>
              <Table.Td ta="right">{batch.counts.failed.toLocaleString('de-DE')}</Table.Td>
              <Table.Td ta="right">{batch.deals.toLocaleString('de-DE')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
