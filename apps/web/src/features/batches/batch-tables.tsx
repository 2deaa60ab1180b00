import { Anchor, Badge, Table } from '@mantine/core';
import {
  BATCH_ITEM_STATUS_LABELS,
  BATCH_VERDICT_LABELS,
  type BatchItem,
  type BatchItemStatus,
  type BatchVerdict,
} from '@vertragsgenerator/domain';
import { Link } from 'react-router';
import { documentPath } from '@/lib/paths';
import { batchesTexts } from './texts';

/**
 * IDs and links on one line. A badge is as wide as its label (`w="max-content"`): in a table cell, Mantine's
 * badge shrinks to „Wartet auf F…“, which says nothing.
 */
const NO_WRAP = { whiteSpace: 'nowrap' } as const;

const t = batchesTexts;

const VERDICT_COLORS: Record<BatchVerdict, string> = { ready: 'green', approval: 'yellow', cannot: 'red' };

const STATUS_COLORS: Record<BatchItemStatus, string> = {
  waiting: 'gray',
  running: 'blue',
  done: 'green',
  approval: 'yellow',
  failed: 'red',
  cancelled: 'gray',
  skipped: 'gray',
};

/** The check's result per deal: its line, match, other party, verdict and why. */
export function CheckTable({ items }: { items: readonly BatchItem[] }) {
  return (
    <Table.ScrollContainer minWidth={700}>
      <Table aria-label={t.batch.checkTable} verticalSpacing="xs" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.columns.position}</Table.Th>
            <Table.Th>{t.columns.matchId}</Table.Th>
            <Table.Th>{t.columns.counterparty}</Table.Th>
            <Table.Th>{t.columns.verdict}</Table.Th>
            <Table.Th>{t.columns.reason}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>{item.position}</Table.Td>
              <Table.Td style={NO_WRAP}>{item.matchId}</Table.Td>
              <Table.Td>{item.counterparty ?? t.none}</Table.Td>
              <Table.Td style={NO_WRAP}>
                <Badge color={VERDICT_COLORS[item.verdict]} variant="light" w="max-content">
                  {BATCH_VERDICT_LABELS[item.verdict]}
                </Badge>
              </Table.Td>
              <Table.Td>{item.reason ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The run per deal: its status, why it failed (or was skipped) and, once made, its document. */
export function RunTable({ items }: { items: readonly BatchItem[] }) {
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table aria-label={t.batch.runTable} verticalSpacing="xs" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.columns.position}</Table.Th>
            <Table.Th>{t.columns.matchId}</Table.Th>
            <Table.Th>{t.columns.counterparty}</Table.Th>
            <Table.Th>{t.columns.status}</Table.Th>
            <Table.Th>{t.columns.note}</Table.Th>
            <Table.Th>{t.columns.document}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>{item.position}</Table.Td>
              <Table.Td style={NO_WRAP}>{item.matchId}</Table.Td>
              <Table.Td>{item.counterparty ?? t.none}</Table.Td>
              <Table.Td style={NO_WRAP}>
                <Badge color={STATUS_COLORS[item.status]} variant="light" w="max-content">
                  {BATCH_ITEM_STATUS_LABELS[item.status]}
                </Badge>
              </Table.Td>
              <Table.Td>{item.error ?? (item.status === 'done' ? '' : (item.reason ?? ''))}</Table.Td>
              <Table.Td style={NO_WRAP}>
                {item.documentId !== null && item.status !== 'failed' && (
                  // The visible text names the link; the match tells the many links apart for a screen reader.
                  <Anchor
                    size="sm"
                    component={Link}
                    to={documentPath(item.documentId)}
                    aria-label={t.batch.openDocumentOf(item.matchId)}
                  >
                    {t.batch.openDocument}
                  </Anchor>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
