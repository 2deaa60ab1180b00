import { List } from '@mantine/core';
import { type ApprovalRequest, approvalReasonText } from '@vertragsgenerator/domain';

type Size = 'xs' | 'sm' | 'md';

/** Reasons already worded, one item each (a batch's reasons, each once). */
export function ReasonTexts({ texts, size = 'sm' }: { texts: readonly string[]; size?: Size }) {
  return (
    <List size={size} spacing={2}>
      {texts.map((text) => (
        <List.Item key={text}>{text}</List.Item>
      ))}
    </List>
  );
}

/** The reasons in words with their figures, e.g. „Marge remote 12,4 % liegt unter 15 % (WM)“. */
export function ReasonList({
  request,
  size = 'sm',
}: {
  request: Pick<ApprovalRequest, 'reasons' | 'reasonTexts'>;
  size?: Size;
}) {
  // The server's words where it gave them; the shared wording otherwise.
  const words = request.reasons.map(
    (reason, index) => request.reasonTexts[index] ?? approvalReasonText(reason),
  );
  return <ReasonTexts texts={words} size={size} />;
}
