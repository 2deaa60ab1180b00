import { List } from '@mantine/core';
import { type ApprovalRequest, approvalReasonText } from '@vertragsgenerator/domain';

/** The reasons in words with their figures, e.g. „Marge remote 12,4 % liegt unter 15 % (WM)“. */
export function ReasonList({
  request,
  size = 'sm',
}: {
  request: Pick<ApprovalRequest, 'reasons' | 'reasonTexts'>;
  size?: 'xs' | 'sm' | 'md';
}) {
  // The server's words where it gave them; the shared wording otherwise.
  const words = request.reasons.map(
    (reason, index) => request.reasonTexts[index] ?? approvalReasonText(reason),
  );
  return (
    <List size={size} spacing={2}>
      {words.map((text) => (
        <List.Item key={text}>{text}</List.Item>
      ))}
    </List>
  );
}
