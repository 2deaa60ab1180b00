import { Anchor, Badge, Group, Table, Text, UnstyledButton } from '@mantine/core';
import {
  CONTRACT_KIND_LABELS,
  type ContractRow,
  type ContractSort,
  type ContractsQuery,
} from '@vertragsgenerator/domain';
import { Link, useLocation } from 'react-router';
import { contractPath } from '@/lib/paths';
import { ContractStatusBadge } from './contract-status-badge';
import { shownDate, signedDay } from './dates';
import { contractsTexts as t } from './texts';

/** Where a record's page leads back to: the list as it was, with its filters. */
export interface ContractLinkState {
  list: string;
}

function SortableHeader({
  column,
  label,
  query,
  onSort,
}: {
  column: ContractSort;
  label: string;
  query: ContractsQuery;
  onSort: (column: ContractSort) => void;
}) {
  const active = query.sort === column;
  const ascending = query.direction === 'asc';
  return (
    <Table.Th aria-sort={active ? (ascending ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(column)} title={t.sortBy(label)} fw={700} fz="sm">
        <Group gap={4} wrap="nowrap" component="span">
          <span>{label}</span>
          <Text span aria-hidden c={active ? undefined : 'dimmed'} fz="xs">
            {active ? (ascending ? '▲' : '▼') : '↕'}
          </Text>
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

function NoticeCell({ row }: { row: ContractRow }) {
  if (row.noticeRuleSource === 'unreadable')
    return (
      <Badge color="red.8" variant="outline" style={{ whiteSpace: 'nowrap', overflow: 'visible' }}>
        {t.noticeUnreadable}
      </Badge>
    );
  if (row.lastNoticeDay) return <Text size="sm">{shownDate(row.lastNoticeDay)}</Text>;
  return (
    <Text size="sm" c="dimmed">
      {row.noticeRuleSource === 'missing' ? t.noNotice : t.none}
    </Text>
  );
}

/**
 * One page of records. The sortable columns sort by a click (again: the other way), and say how they
 * sort (aria-sort); the match of each row is the link to its record.
 */
export function ContractsTable({
  rows,
  query,
  onSort,
}: {
  rows: ContractRow[];
  query: ContractsQuery;
  onSort: (column: ContractSort) => void;
}) {
  const { search } = useLocation();
  const state: ContractLinkState = { list: search };
  const sortable = (column: ContractSort, label: string) => (
    <SortableHeader column={column} label={label} query={query} onSort={onSort} />
  );
  return (
    <Table.ScrollContainer minWidth={1100}>
      <Table verticalSpacing="xs" aria-label={t.table} striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {sortable('match', t.match)}
            <Table.Th>{t.kind}</Table.Th>
            <Table.Th>{t.counterparty}</Table.Th>
            {sortable('customer', t.customer)}
            <Table.Th>{t.consultant}</Table.Th>
            <Table.Th>{t.start}</Table.Th>
            {sortable('end', t.end)}
            {sortable('notice', t.lastNoticeDay)}
            {sortable('signed', t.signed)}
            <Table.Th>{t.status}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={contractPath(row.id)}
                  state={state}
                  fw={600}
                  style={{ whiteSpace: 'nowrap' }}
                  aria-label={t.openFor(CONTRACT_KIND_LABELS[row.kind], row.matchId)}
                >
                  {row.matchId}
                </Anchor>
              </Table.Td>
              <Table.Td>{CONTRACT_KIND_LABELS[row.kind]}</Table.Td>
              <Table.Td>{row.counterparty}</Table.Td>
              <Table.Td>{row.customer}</Table.Td>
              <Table.Td>{row.consultant}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{shownDate(row.startDate)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{shownDate(row.endDate)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <NoticeCell row={row} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{signedDay(row.signedAt)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <ContractStatusBadge status={row.status} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
