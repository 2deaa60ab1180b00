import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { voidEnvelopeSchema } from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { ApiRequestError, errorMessage } from '../../lib/api';
import { texts } from '../../texts';
import { envelopeQueryOptions, voidEnvelope } from './api';
import { useSingleMutation } from './use-single-mutation';

/** `Verwerfen`: withdraws the envelope after a confirmation that takes an optional reason. */
export function VoidEnvelopeButton({
  envelopeId,
  disabled = false,
}: {
  envelopeId: string;
  disabled?: boolean;
}) {
  const queryClient = useQueryClient();
  const [opened, dialog] = useDisclosure(false);
  const [reason, setReason] = useState('');
  const voiding = useSingleMutation({
    mutationFn: (text: string) => voidEnvelope(envelopeId, text),
    onSuccess: (voided) => {
      queryClient.setQueryData(envelopeQueryOptions(envelopeId).queryKey, voided);
      notifications.show({ title: texts.envelope.discardedTitle, message: texts.envelope.discarded });
      dialog.close();
    },
    onError: (error) => {
      // Completed or withdrawn meanwhile: the page shows what the envelope is now.
      if (error instanceof ApiRequestError && error.status === 409) {
        // A notification, as the dialog that would show an alert closes.
        notifications.show({ color: 'yellow', message: error.message });
        dialog.close();
        void queryClient.invalidateQueries({ queryKey: envelopeQueryOptions(envelopeId).queryKey });
      }
    },
  });
  const reasonError = voiding.error instanceof ApiRequestError ? voiding.error.fields.reason?.[0] : undefined;
  const parsed = voidEnvelopeSchema.safeParse({ reason });
  const tooLong = parsed.success ? undefined : parsed.error.issues[0]?.message;

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (parsed.success) voiding.mutate(parsed.data.reason);
  }

  return (
    <>
      <Button variant="default" color="red" onClick={dialog.open} disabled={disabled}>
        {texts.envelope.discard}
      </Button>
      <Modal opened={opened} onClose={dialog.close} title={texts.envelope.discardTitle}>
        <form onSubmit={handleSubmit} noValidate>
          <Stack>
            <Text size="sm">{texts.envelope.discardText}</Text>
            <Textarea
              label={texts.envelope.discardReason}
              rows={2}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              error={tooLong ?? reasonError}
              data-autofocus
            />
            {voiding.isError && !reasonError && <Alert color="red">{errorMessage(voiding.error)}</Alert>}
            <Group justify="flex-end">
              <Button variant="default" onClick={dialog.close}>
                {texts.envelope.cancel}
              </Button>
              <Button type="submit" color="red" loading={voiding.isPending} disabled={!parsed.success}>
                {texts.envelope.discard}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
