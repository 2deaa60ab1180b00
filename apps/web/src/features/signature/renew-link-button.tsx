import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EnvelopeRecipient } from '@vertragsgenerator/domain';
import { errorMessage } from '../../lib/api';
import { texts } from '../../texts';
import { envelopeQueryOptions, renewSigningLink } from './api';

/** `Link erneuern` for one signer: mails a new link; the page then shows its new expiry. */
export function RenewLinkButton({
  envelopeId,
  recipient,
}: {
  envelopeId: string;
  recipient: EnvelopeRecipient;
}) {
  const queryClient = useQueryClient();
  const renewal = useMutation({
    mutationFn: () => renewSigningLink(envelopeId, recipient.id),
    onSuccess: (envelope) => {
      queryClient.setQueryData(envelopeQueryOptions(envelopeId).queryKey, envelope);
      notifications.show({
        title: texts.envelope.linkRenewedTitle,
        message: texts.envelope.linkRenewed(recipient.name),
      });
    },
    onError: (error) => {
      notifications.show({ color: 'red', message: errorMessage(error) });
      // Signed or withdrawn meanwhile: the page shows what the envelope is now.
      void queryClient.invalidateQueries({ queryKey: envelopeQueryOptions(envelopeId).queryKey });
    },
  });
  return (
    <Button
      size="xs"
      variant="default"
      loading={renewal.isPending}
      onClick={() => renewal.mutate()}
      aria-label={texts.envelope.renewLinkFor(recipient.name)}
    >
      {texts.envelope.renewLink}
    </Button>
  );
}
