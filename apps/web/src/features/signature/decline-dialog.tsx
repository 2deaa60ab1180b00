import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { declineEnvelopeSchema, type SigningView } from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { texts } from '@/texts';
import { announced } from './announced';
import { errorAt, fieldErrorsOf } from './field-errors';
import { declineEnvelope, isLinkError } from './signing-api';

interface DeclineDialogProps {
  token: string;
  senderName: string;
  opened: boolean;
  onClose: () => void;
  onDeclined: (view: SigningView) => void;
  onLinkClosed: (error: ApiRequestError) => void;
}

/** Asks a reason and declines the envelope: the sender hears of it by mail. */
export function DeclineDialog({
  token,
  senderName,
  opened,
  onClose,
  onDeclined,
  onLinkClosed,
}: DeclineDialogProps) {
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const declining = useSingleMutation({
    mutationFn: (text: string) => declineEnvelope(token, text),
    onSuccess: onDeclined,
    onError: (error) => {
      if (isLinkError(error)) onLinkClosed(error);
    },
  });
  const serverError =
    declining.error instanceof ApiRequestError ? declining.error.fields.reason?.[0] : undefined;

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const request = declineEnvelopeSchema.safeParse({ reason });
    if (!request.success) {
      setReasonError(errorAt('reason', fieldErrorsOf(request.error)));
      return;
    }
    setReasonError(undefined);
    declining.mutate(request.data.reason);
  }

  return (
    <Modal opened={opened} onClose={onClose} title={texts.signing.declineTitle}>
      <form onSubmit={handleSubmit} noValidate>
        <Stack>
          <Text size="sm">{texts.signing.declineText(senderName)}</Text>
          <Textarea
            label={texts.signing.declineReason}
            required
            rows={3}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            error={announced(reasonError ?? serverError)}
            data-autofocus
          />
          {declining.isError && !serverError && !isLinkError(declining.error) && (
            <Alert color="red">{errorMessage(declining.error)}</Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {texts.signing.cancel}
            </Button>
            <Button type="submit" color="red" loading={declining.isPending}>
              {texts.signing.decline}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
