import { Box, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { figuresTexts as t } from './texts';

/** A table of figures: a caption, column headers, and each row's first cell as its header. */
export function FigureTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: readonly string[];
  rows: readonly { key: string; cells: readonly ReactNode[] }[];
}) {
  return (
    // A table wider than its column scrolls; a region that scrolls must be reachable with the keyboard
    // (arrow keys scroll it once focused), so the container is a named, focusable region.
    <Table.ScrollContainer minWidth={320} type="native" tabIndex={0} role="region" aria-label={caption}>
      <Table striped withTableBorder fz="sm" captionSide="top">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, index) => (
              <Table.Th key={column} scope="col" ta={index === 0 ? 'left' : 'right'}>
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.key}>
              {row.cells.map((cell, index) =>
                index === 0 ? (
                  <Table.Th key={columns[index]} scope="row" fw="normal">
                    {cell}
                  </Table.Th>
                ) : (
                  <Table.Td key={columns[index]} ta="right">
                    {cell}
                  </Table.Td>
                ),
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * One figure: its heading and what it counts, the chart with its numbers as a table beside it, or the
 * sentence that there is nothing to show. The chart is a picture with a name; the table carries the
 * numbers for screen readers and keyboards.
 */
export function FigureSection({
  heading,
  text,
  chartLabel,
  chart,
  table,
  empty,
  children,
}: {
  heading: string;
  text: string;
  chartLabel: string;
  chart: ReactNode;
  table: ReactNode;
  /** The sentence shown instead of chart and table; undefined when there is something to show. */
  empty?: string;
  children?: ReactNode;
}) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <div>
        <Title order={2} id={headingId}>
          {heading}
        </Title>
        <Text size="sm" c="dimmed">
          {text}
        </Text>
      </div>
      {empty ? (
        <Text>{empty}</Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
            <Box role="img" aria-label={`${chartLabel}. ${t.chartHint}`}>
              {chart}
            </Box>
            {table}
          </SimpleGrid>
          {children}
        </>
      )}
    </Stack>
  );
}
