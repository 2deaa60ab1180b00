import { Anchor, Box, Group, Text } from '@mantine/core';
import {
  CONTRACT_KIND_LABELS,
  CONTRACT_RELATION_LABELS,
  type ContractRecord,
} from '@vertragsgenerator/domain';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { contractPath } from '@/lib/paths';
import { ContractStatusBadge } from './contract-status-badge';
import { shownDate } from './dates';
import { contractsTexts as t } from './texts';

type ChainEntry = ContractRecord['chain'][number];
interface ChainNode {
  entry: ChainEntry;
  children: ChainNode[];
}

/** The chain as a tree: each entry comes after its parent, one level deeper (the server's order). */
function chainTree(chain: ChainEntry[]): ChainNode[] {
  const roots: ChainNode[] = [];
  const path: ChainNode[] = [];
  for (const entry of chain) {
    const node: ChainNode = { entry, children: [] };
    path.length = Math.min(path.length, entry.depth);
    const parent = path[path.length - 1];
    (parent ? parent.children : roots).push(node);
    path.push(node);
  }
  return roots;
}

function ChainList({ nodes, currentId, nested }: { nodes: ChainNode[]; currentId: string; nested: boolean }) {
  const location = useLocation();
  const items: ReactNode[] = nodes.map(({ entry, children }) => {
    const current = entry.id === currentId;
    const label = `${CONTRACT_KIND_LABELS[entry.kind]} ${entry.matchId}`;
    return (
      <li key={entry.id}>
        <Group gap="xs" wrap="wrap" py={4}>
          {entry.relation && (
            <Text span size="sm" c="dimmed">
              {CONTRACT_RELATION_LABELS[entry.relation]}:
            </Text>
          )}
          <Anchor
            component={Link}
            to={contractPath(entry.id)}
            state={location.state}
            aria-current={current ? 'page' : undefined}
            fw={current ? 700 : 500}
          >
            {label}
          </Anchor>
          <Text span size="sm">
            {entry.counterparty}
            {entry.endDate ? ` · ${t.end} ${shownDate(entry.endDate)}` : ''}
          </Text>
          <ContractStatusBadge status={entry.status} />
          {current && (
            <Text span size="sm" fw={600}>
              {t.record.chainCurrent}
            </Text>
          )}
        </Group>
        {children.length > 0 && <ChainList nodes={children} currentId={currentId} nested />}
      </li>
    );
  });
  return (
    <Box
      component="ul"
      m={0}
      pl={nested ? 'xl' : 0}
      style={{
        listStyle: 'none',
        ...(nested ? { borderLeft: '2px solid var(--mantine-color-gray-4)', marginLeft: 6 } : {}),
      }}
    >
      {items}
    </Box>
  );
}

/**
 * The record's chain top-down as an indented list: the Rahmenvertrag, the Einzelaufträge under it, a
 * change or termination under what it changes or ends; each entry with its relation, status and link.
 */
export function ContractChain({ record }: { record: ContractRecord }) {
  return <ChainList nodes={chainTree(record.chain)} currentId={record.id} nested={false} />;
}
