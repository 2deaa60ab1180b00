import { Table, Text } from '@mantine/core';
import { type DisplayRow, displayRows, type ResolvedMatch } from '@vertragsgenerator/domain';
import type { CSSProperties } from 'react';
import { texts } from '@/texts';

// CRM texts carry their own line breaks, and an unbroken URL must not widen the table beyond the page.
const VALUE_STYLE: CSSProperties = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' };

export interface MatchTableProps {
  match: ResolvedMatch;
  /** Rows a plausibility hint is about; they are marked so the user finds what to check. */
  hintedFields: ReadonlySet<string>;
}

/** The deal data (docs/architecture.md#matches) as label and value; values are text, never markup. */
export function MatchTable({ match, hintedFields }: MatchTableProps) {
  return (
    <Table captionSide="top" layout="fixed" withTableBorder verticalSpacing="xs">
      <Table.Caption>{texts.match.tableCaption(match.matchId)}</Table.Caption>
      <colgroup>
        <col style={{ width: '35%' }} />
        <col />
      </colgroup>
      <Table.Tbody>
        {displayRows(match).map((row) => (
          <MatchTableRow key={row.key} row={row} hinted={hintedFields.has(row.key)} />
        ))}
      </Table.Tbody>
    </Table>
  );
}

function MatchTableRow({ row, hinted }: { row: DisplayRow; hinted: boolean }) {
  const bg = hinted ? 'var(--mantine-color-yellow-light)' : undefined;
  if (row.wide) {
    // A long value gets the full width below its label instead of a narrow column beside it.
    return (
      <Table.Tr bg={bg} mod={{ wide: true, hinted }}>
        <Table.Td colSpan={2}>
          <Text component="div" size="sm" fw={700}>
            {row.label}
          </Text>
          <Text component="div" size="sm" style={VALUE_STYLE}>
            {row.value}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  }
  return (
    <Table.Tr bg={bg} mod={{ hinted }}>
      <Table.Th scope="row">{row.label}</Table.Th>
      <Table.Td style={VALUE_STYLE}>{row.value}</Table.Td>
    </Table.Tr>
  );
}
