import { Alert, List, Stack, Text } from '@mantine/core';
import { type EnvelopeApproval, type EnvelopeView, formatDateTime } from '@vertragsgenerator/domain';
import { ApprovalSendAgain } from '@/components/approval-send-again';
import { approvalTexts as t } from './approval-texts';

/** Where the envelope stands with its approval, as far as the draft's `Senden` is concerned. */
export type ApprovalState = 'none' | 'required' | 'waiting' | 'sending';

export function approvalState(envelope: EnvelopeView): ApprovalState {
  const { approval } = envelope;
  if (!approval) return 'none';
  const request = approval.request;
  if (request?.status === 'open') return 'waiting';
  // Approved: the server sends it in the requester's name; until then nothing is to be sent twice.
  if (request?.status === 'approved' && request.send?.state === 'pending') return 'sending';
  return approval.required ? 'required' : 'none';
}

function Reasons({ texts }: { texts: readonly string[] }) {
  return (
    <List size="sm" spacing={2}>
      {texts.map((text) => (
        <List.Item key={text}>{text}</List.Item>
      ))}
    </List>
  );
}

const at = (iso: string | null) => (iso ? formatDateTime(new Date(iso)) : '');

/**
 * Why the envelope waits for or needs an approval, in words with the figures („Marge remote 12,4 %
 * liegt unter 15 % (WM)“), and what became of the last request: declined with its reason, void, or
 * approved and on its way.
 */
export function EnvelopeApprovalNotice({
  approval,
  onChanged,
}: {
  approval: EnvelopeApproval;
  /** Reloads the envelope after the request changed here (a send tried again). */
  onChanged: () => void;
}) {
  const request = approval.request;
  if (request?.status === 'open') {
    return (
      <Alert color="orange" title={t.waiting}>
        <Stack gap="xs">
          <Text size="sm">{t.waitingText(at(request.requestedAt))}</Text>
          <Reasons texts={request.reasonTexts} />
        </Stack>
      </Alert>
    );
  }
  if (
    request?.status === 'approved' &&
    (request.send?.state === 'pending' || request.send?.state === 'failed')
  ) {
    return (
      <Alert color={request.send.state === 'failed' ? 'red' : 'green'} title={t.approved}>
        <Stack gap="xs">
          {request.decidedBy && (
            <Text size="sm">{t.approvedBy(request.decidedBy.name, at(request.decidedAt))}</Text>
          )}
          {request.comment && <Text size="sm">{t.comment(request.comment)}</Text>}
          <Text size="sm">
            {request.send.state === 'failed' ? t.sendFailed(request.send.error ?? '') : t.sending}
          </Text>
          {request.send.uncertain && request.maySendAgain && (
            <ApprovalSendAgain requestId={request.id} onSettled={onChanged} />
          )}
        </Stack>
      </Alert>
    );
  }
  if (!approval.required) return null;
  return (
    <Stack gap="sm">
      {request?.status === 'declined' && (
        <Alert color="red" title={t.declined}>
          <Stack gap="xs">
            {request.decidedBy && (
              <Text size="sm">{t.declinedBy(request.decidedBy.name, at(request.decidedAt))}</Text>
            )}
            {request.comment && <Text size="sm">{t.declinedReason(request.comment)}</Text>}
            <Text size="sm">{t.declinedAgain}</Text>
          </Stack>
        </Alert>
      )}
      {request?.status === 'void' && request.voidReason && (
        <Alert color="yellow" title={t.voided}>
          <Text size="sm">{request.voidReason}</Text>
        </Alert>
      )}
      <Alert color="yellow" title={t.needed}>
        <Stack gap="xs">
          <Reasons texts={approval.reasonTexts} />
          <Text size="sm">{t.neededIntro}</Text>
        </Stack>
      </Alert>
    </Stack>
  );
}
