import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { type ApprovalBatchGroup, formatDateTime } from '@vertragsgenerator/domain';
import { useId } from 'react';
import { Link } from 'react-router';
import { approvalBatchPath } from '@/lib/paths';
import { ReasonTexts } from './reason-list';
import { approvalTexts } from './texts';

const t = approvalTexts.groups;

/**
 * „Serien“ on /freigaben: each batch whose deals need Freigabe as one row — the document, who started
 * it and when, where its deals stand, the reasons, and the link to decide them.
 */
export function ApprovalBatchGroups({ groups }: { groups: readonly ApprovalBatchGroup[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={2} size="h3" id={headingId}>
          {t.heading}
        </Title>
        <Text size="sm" c="dimmed">
          {t.intro}
        </Text>
        <Table.ScrollContainer minWidth={900}>
          <Table verticalSpacing="sm" aria-label={t.table} striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t.title}</Table.Th>
                <Table.Th>{approvalTexts.requestedBy}</Table.Th>
                <Table.Th>{t.counts}</Table.Th>
                <Table.Th>{approvalTexts.reasons}</Table.Th>
                <Table.Th>{approvalTexts.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {groups.map((group) => {
                const date = formatDateTime(new Date(group.requestedAt));
                return (
                  <Table.Tr key={group.batchId}>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {group.title}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{group.requestedBy.name}</Text>
                      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                        {approvalTexts.on(date)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{approvalTexts.batchCounts(group)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <ReasonTexts texts={group.reasonTexts} size="xs" />
                    </Table.Td>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={approvalBatchPath(group.batchId)}
                        size="sm"
                        fw={group.mayDecide && group.open > 0 ? 700 : undefined}
                        aria-label={t.reviewFor(group.title, date)}
                        style={{ whiteSpace: 'nowrap' }}
                      >
                        {t.review}
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </section>
  );
}
