import { Alert, Button, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { auditQueryOptions } from './api';
import { adminTexts, dateTime } from './texts';

const t = adminTexts.audit;

/** The audit log, newest first, older pages on request; the app never edits or deletes an entry. */
export function AuditTab() {
  const audit = useInfiniteQuery(auditQueryOptions);
  if (audit.isPending) return <SectionLoader />;
  if (audit.isError) return <Alert color="red">{errorMessage(audit.error)}</Alert>;
  const entries = audit.data.pages.flatMap((page) => page.entries);
  if (entries.length === 0) return <Text>{t.none}</Text>;
  return (
    <Stack align="flex-start">
      <Table.ScrollContainer minWidth={900} w="100%">
        <Table verticalSpacing="xs" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.when}</Table.Th>
              <Table.Th>{t.who}</Table.Th>
              <Table.Th>{t.what}</Table.Th>
              <Table.Th>{t.subject}</Table.Th>
              <Table.Th>{t.change}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td>{dateTime.format(new Date(entry.at))}</Table.Td>
                <Table.Td>{entry.actor}</Table.Td>
                <Table.Td>{t.actions[entry.action] ?? entry.action}</Table.Td>
                <Table.Td>{entry.subject}</Table.Td>
                <Table.Td>
                  {entry.oldValue !== null && entry.newValue !== null
                    ? `${entry.oldValue} → ${entry.newValue}`
                    : (entry.newValue ?? entry.oldValue ?? '')}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {audit.hasNextPage && (
        <Button
          variant="default"
          loading={audit.isFetchingNextPage}
          onClick={() => void audit.fetchNextPage()}
        >
          {t.more}
        </Button>
      )}
    </Stack>
  );
}
