import { Badge, type MantineColor } from '@mantine/core';
import { CONTRACT_STATUS_LABELS, type ContractStatus } from '@vertragsgenerator/domain';

const STATUS_COLORS: Record<ContractStatus, MantineColor> = {
  in_force: 'green',
  ending_soon: 'orange',
  open_ended: 'blue',
  ended: 'gray',
  terminated: 'red',
  superseded: 'dark',
};

/** A contract's status as of today. */
export function ContractStatusBadge({ status }: { status: ContractStatus }) {
  return (
    <Badge
      color={STATUS_COLORS[status]}
      variant="light"
      // Never cut to „In …“ in a narrow column.
      style={{ whiteSpace: 'nowrap', overflow: 'visible', minWidth: 'max-content' }}
    >
      {CONTRACT_STATUS_LABELS[status]}
    </Badge>
  );
}
