import { Badge, type MantineColor } from '@mantine/core';
import { ENVELOPE_STATUS_LABELS, type EnvelopeStatus } from '@vertragsgenerator/domain';

const STATUS_COLORS: Record<EnvelopeStatus, MantineColor> = {
  created: 'gray',
  sent: 'blue',
  completed: 'green',
  declined: 'red',
  voided: 'dark',
  failed: 'red',
  lapsed: 'gray',
};

/** An e-signature envelope's status, the same in the sender view and in a match's history. */
export function EnvelopeStatusBadge({ status }: { status: EnvelopeStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {ENVELOPE_STATUS_LABELS[status]}
    </Badge>
  );
}
