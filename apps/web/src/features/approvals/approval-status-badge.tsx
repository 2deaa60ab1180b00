import { Badge, type MantineColor } from '@mantine/core';
import { APPROVAL_STATUS_LABELS, type ApprovalStatus } from '@vertragsgenerator/domain';

const STATUS_COLORS: Record<ApprovalStatus, MantineColor> = {
  open: 'orange.9',
  approved: 'green.9',
  declined: 'red.9',
  void: 'dark',
};

/** An approval request's status; the darker shades keep the light badge's text at 4.5 : 1. */
export function ApprovalStatusBadge({ status }: { status: ApprovalStatus }) {
  return (
    <Badge
      color={STATUS_COLORS[status]}
      variant="light"
      // Mantine cuts a badge's label with an ellipsis where the table column is narrow: „OFF…“.
      styles={{ root: { maxWidth: 'none', flexShrink: 0 }, label: { overflow: 'visible' } }}
    >
      {APPROVAL_STATUS_LABELS[status]}
    </Badge>
  );
}
