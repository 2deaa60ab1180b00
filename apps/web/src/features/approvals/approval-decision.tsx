import { Alert, Button, Group, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { type ApprovalRequest, declineBodySchema, formatDateTime } from '@vertragsgenerator/domain';
import { type FormEvent, useId, useState } from 'react';
import { ApprovalSendAgain } from '@/components/approval-send-again';
import { errorMessage } from '@/lib/api';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { APPROVALS_QUERY_KEY, approve, decline } from './api';
import { approvalTexts } from './texts';

const t = approvalTexts.decision;

/**
 * `Freigeben` with an optional comment, `Ablehnen` with a reason; or, once decided, who decided and
 * what they said. When another approver was faster, the server's words say so and nothing is sent.
 */
export function ApprovalDecision({
  request,
  userEmail,
}: {
  request: ApprovalRequest;
  userEmail: string | null;
}) {
  const headingId = useId();
  // Kept here, above the form: the request reloaded after a refusal may no longer be open.
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <section aria-labelledby={headingId}>
      <Title order={3} size="h4" id={headingId} mb="xs">
        {t.heading}
      </Title>
      {refusal && (
        <Alert color="red" mb="sm" role="alert">
          {refusal}
        </Alert>
      )}
      {request.status === 'open' ? (
        request.mayDecide ? (
          <DecisionForm request={request} onRefused={setRefusal} />
        ) : (
          <Text>{request.requestedBy.email === userEmail ? t.ownRequest : t.notYours}</Text>
        )
      ) : (
        <Decided request={request} />
      )}
    </section>
  );
}

function DecisionForm({
  request,
  onRefused,
}: {
  request: ApprovalRequest;
  onRefused: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const [declining, setDeclining] = useState(false);
  const reload = () => void queryClient.invalidateQueries({ queryKey: APPROVALS_QUERY_KEY });
  // Refused (another approver was first, the document changed): the server's words, and what it is now.
  const refused = (error: Error) => {
    setDeclining(false);
    onRefused(errorMessage(error));
    reload();
  };
  const approval = useSingleMutation({
    mutationFn: (text: string) => approve(request.id, text),
    onError: refused,
    onSuccess: () => {
      notifications.show({
        color: 'green',
        message: request.envelopeId ? t.approved : t.approvedDocument,
      });
      reload();
    },
  });
  const refusal = useSingleMutation({
    mutationFn: (reason: string) => decline(request.id, reason),
    onError: refused,
    onSuccess: () => {
      setDeclining(false);
      notifications.show({ color: 'green', message: t.declined });
      reload();
    },
  });
  const busy = approval.isPending || refusal.isPending;
  return (
    <Stack gap="sm" maw={720}>
      <ApprovalComment value={comment} onChange={setComment} description={t.commentDescription} />
      <Group>
        <Button
          color="teal.9"
          loading={approval.isPending}
          disabled={busy}
          onClick={() => approval.mutate(comment)}
        >
          {t.approve}
        </Button>
        <Button color="red.9" variant="outline" disabled={busy} onClick={() => setDeclining(true)}>
          {t.decline}
        </Button>
      </Group>
      <DeclineDialog
        opened={declining}
        pending={refusal.isPending}
        onCancel={() => setDeclining(false)}
        onDecline={(reason) => refusal.mutate(reason)}
      />
    </Stack>
  );
}

/**
 * `Ablehnen` asks for the reason the requester is mailed, checked as the server checks it; shared by the
 * single request's decision and each deal of a batch (`title` names the deal there).
 */
/** The approver's optional comment, which goes with the approval to whoever asked. */
export function ApprovalComment({
  value,
  onChange,
  description,
}: {
  value: string;
  onChange: (value: string) => void;
  description: string;
}) {
  return (
    <Textarea
      label={t.comment}
      description={description}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      maxLength={2000}
      rows={2}
    />
  );
}

export function DeclineDialog({
  opened,
  pending,
  onCancel,
  onDecline,
  title = t.declineTitle,
}: {
  opened: boolean;
  pending: boolean;
  onCancel: () => void;
  onDecline: (reason: string) => void;
  title?: string;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = declineBodySchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? t.reason);
      return;
    }
    setError(null);
    onDecline(parsed.data.reason);
  }
  return (
    <Modal opened={opened} onClose={onCancel} title={title}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Textarea
            label={t.reason}
            description={t.reasonDescription}
            required
            data-autofocus
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            error={error}
            maxLength={2000}
            rows={4}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              {t.cancel}
            </Button>
            <Button type="submit" color="red.9" loading={pending}>
              {t.confirmDecline}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function Decided({ request }: { request: ApprovalRequest }) {
  const queryClient = useQueryClient();
  return (
    <Stack gap={4}>
      {request.decidedBy && request.decidedAt && (
        <Text>{t.decidedBy(request.decidedBy.name, formatDateTime(new Date(request.decidedAt)))}</Text>
      )}
      {request.comment && (
        <Text>
          <Text span fw={600}>
            {request.status === 'declined' ? t.reasonLabel : t.commentLabel}:
          </Text>{' '}
          {request.comment}
        </Text>
      )}
      {request.status === 'void' && request.voidReason && <Text>{t.voided(request.voidReason)}</Text>}
      {request.send?.state === 'pending' && <Text>{t.sendPending}</Text>}
      {request.send?.state === 'done' && request.send.at && (
        <Text>{t.sendDone(formatDateTime(new Date(request.send.at)))}</Text>
      )}
      {request.send?.state === 'failed' && (
        <Alert color="red">{t.sendFailed(request.send.error ?? '')}</Alert>
      )}
      {request.send?.uncertain && request.maySendAgain && (
        <ApprovalSendAgain
          requestId={request.id}
          onSettled={() => void queryClient.invalidateQueries({ queryKey: APPROVALS_QUERY_KEY })}
        />
      )}
    </Stack>
  );
}
