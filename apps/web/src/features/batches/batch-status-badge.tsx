import { Badge } from '@mantine/core';
import { BATCH_STATUS_LABELS, type BatchStatus } from '@vertragsgenerator/domain';

const COLORS: Record<BatchStatus, string> = {
  checked: 'blue',
  running: 'yellow',
  finished: 'green',
  cancelled: 'gray',
};

/** A batch's status as a badge with its German label. */
export function BatchStatusBadge({ status }: { status: BatchStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light">
      {BATCH_STATUS_LABELS[status]}
    </Badge>
  );
}
