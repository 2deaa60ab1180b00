import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { type EnvelopeView, voidEnvelopeSchema } from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { voidEnvelope } from '@/lib/envelopes';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { texts } from '@/texts';

/**
 * `Verwerfen`: withdraws the envelope after a confirmation that takes an optional reason. `onChanged`
 * gets the withdrawn envelope, or null when the page should reload it.
 */
export function VoidEnvelopeButton({
  envelopeId,
  disabled = false,
  size,
  label,
  onChanged,
}: {
  envelopeId: string;
  disabled?: boolean;
  size?: 'xs';
  /** The button's accessible name where several envelopes are listed; its text stays „Verwerfen". */
  label?: string;
  onChanged: (envelope: EnvelopeView | null) => void;
}) {
  const [opened, dialog] = useDisclosure(false);
  const [reason, setReason] = useState('');
  const voiding = useSingleMutation({
    mutationFn: (text: string) => voidEnvelope(envelopeId, text),
    onSuccess: (voided) => {
      onChanged(voided);
      notifications.show({ title: texts.envelope.discardedTitle, message: texts.envelope.discarded });
      dialog.close();
    },
    onError: (error) => {
      // Completed or withdrawn meanwhile: the page shows what the envelope is now.
      if (error instanceof ApiRequestError && error.status === 409) {
        // A notification, as the dialog that would show an alert closes.
        notifications.show({ color: 'yellow', message: error.message });
        dialog.close();
        onChanged(null);
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
      <Button
        variant="default"
        color="red"
        size={size}
        onClick={dialog.open}
        disabled={disabled}
        aria-label={label}
      >
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
