import { Anchor, Badge, Stack, Table, Text } from '@mantine/core';
import {
  BATCH_ITEM_STATUS_LABELS,
  BATCH_VERDICT_LABELS,
  type BatchItem,
  type BatchItemStatus,
  type BatchVerdict,
} from '@vertragsgenerator/domain';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { approvalBatchPath, documentPath, envelopePath } from '@/lib/paths';
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

/** One column of a batch's deals: its header and what a deal shows in it. */
interface Column {
  header: string;
  cell: (item: BatchItem) => ReactNode;
  noWrap?: boolean;
}

/** Every table of deals starts with the deal's line, its match and the other party. */
const DEAL_COLUMNS: readonly Column[] = [
  { header: t.columns.position, cell: (item) => item.position },
  { header: t.columns.matchId, cell: (item) => item.matchId, noWrap: true },
  { header: t.columns.counterparty, cell: (item) => item.counterparty ?? t.none },
];

function StateBadge({ color, label }: { color: string; label: string }) {
  return (
    <Badge color={color} variant="light" w="max-content">
      {label}
    </Badge>
  );
}

/** The deals of a batch, one row each, named for a screen reader by `label`. */
function DealTable({
  items,
  label,
  minWidth,
  columns,
}: {
  items: readonly BatchItem[];
  label: string;
  minWidth: number;
  columns: readonly Column[];
}) {
  const all = [...DEAL_COLUMNS, ...columns];
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table aria-label={label} verticalSpacing="xs" striped>
        <Table.Thead>
          <Table.Tr>
            {all.map((column) => (
              <Table.Th key={column.header}>{column.header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id}>
              {all.map((column) => (
                <Table.Td key={column.header} style={column.noWrap ? NO_WRAP : undefined}>
                  {column.cell(item)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The check's result per deal: its line, match, other party, verdict and why. */
export function CheckTable({ items }: { items: readonly BatchItem[] }) {
  return (
    <DealTable
      items={items}
      label={t.batch.checkTable}
      minWidth={700}
      columns={[
        {
          header: t.columns.verdict,
          cell: (item) => (
            <StateBadge color={VERDICT_COLORS[item.verdict]} label={BATCH_VERDICT_LABELS[item.verdict]} />
          ),
          noWrap: true,
        },
        { header: t.columns.reason, cell: (item) => item.reason ?? '' },
      ]}
    />
  );
}

/** A deal's Freigabe: where it stands, and the batch's grouped request where it is decided. */
function ApprovalCell({ batchId, item }: { batchId: string; item: BatchItem }) {
  if (item.approval === null) return null;
  return (
    <Stack gap={2} align="flex-start">
      <Text size="sm">{t.batch.approvalStates[item.approval.status]}</Text>
      <Anchor
        size="sm"
        component={Link}
        to={approvalBatchPath(batchId)}
        aria-label={t.batch.openApprovalOf(item.matchId)}
      >
        {t.batch.openApproval}
      </Anchor>
    </Stack>
  );
}

/**
 * A deal's result once made: its envelope's sender view for an e-signature contract, its document in the
 * editor otherwise. The visible text names the link; the match tells the many links apart for a screen reader.
 */
function ResultLink({ item }: { item: BatchItem }) {
  if (item.status === 'failed') return null;
  if (item.envelopeId !== null) {
    return (
      <Anchor
        size="sm"
        component={Link}
        to={envelopePath(item.envelopeId)}
        aria-label={t.batch.openEnvelopeOf(item.matchId)}
      >
        {t.batch.openEnvelope}
      </Anchor>
    );
  }
  if (item.documentId === null) return null;
  return (
    <Anchor
      size="sm"
      component={Link}
      to={documentPath(item.documentId)}
      aria-label={t.batch.openDocumentOf(item.matchId)}
    >
      {t.batch.openDocument}
    </Anchor>
  );
}

/**
 * The run per deal: its status, why it failed (or was skipped), its Freigabe where one was asked for
 * and, once made, its document or envelope.
 */
export function RunTable({ batchId, items }: { batchId: string; items: readonly BatchItem[] }) {
  const approvals = items.some((item) => item.approval !== null);
  const columns: Column[] = [
    {
      header: t.columns.status,
      cell: (item) => (
        <StateBadge color={STATUS_COLORS[item.status]} label={BATCH_ITEM_STATUS_LABELS[item.status]} />
      ),
      noWrap: true,
    },
    {
      header: t.columns.note,
      cell: (item) => item.error ?? (item.status === 'done' ? '' : (item.reason ?? '')),
    },
    ...(approvals
      ? [
          {
            header: t.columns.approval,
            cell: (item: BatchItem) => <ApprovalCell batchId={batchId} item={item} />,
          },
        ]
      : []),
    { header: t.columns.document, cell: (item) => <ResultLink item={item} />, noWrap: true },
  ];
  return (
    <DealTable items={items} label={t.batch.runTable} minWidth={approvals ? 950 : 800} columns={columns} />
  );
}
