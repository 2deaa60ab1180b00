import { Badge, type MantineColor } from '@mantine/core';
import { OVERVIEW_STATUS_LABELS, type OverviewStatus } from '@vertragsgenerator/domain';

const STATUS_COLORS: Record<OverviewStatus, MantineColor> = {
  draft: 'gray',
  awaiting_approval: 'yellow',
  sent: 'blue',
  partially_signed: 'cyan',
  expired: 'orange',
  completed: 'green',
  declined: 'red',
  voided: 'dark',
  failed: 'red',
  lapsed: 'gray',
};

/** An envelope's follow-up status in the overview. */
export function OverviewStatusBadge({ status }: { status: OverviewStatus }) {
  return (
    <Badge
      color={STATUS_COLORS[status]}
      variant="light"
      style={{ whiteSpace: 'nowrap', overflow: 'visible' }}
    >
      {OVERVIEW_STATUS_LABELS[status]}
    </Badge>
  );
}
