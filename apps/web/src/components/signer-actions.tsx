import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import type { EnvelopeView } from '@vertragsgenerator/domain';
import { errorMessage } from '@/lib/api';
import { remindSigner, renewSigningLink } from '@/lib/envelopes';
import { texts } from '@/texts';

/** The signer an action is for, as the sender view and the overview know them. */
export interface WaitingSigner {
  id: string;
  name: string;
  /** ISO date-time; null for a signer who has no link (yet). */
  linkExpiresAt: string | null;
}

const ACTIONS = {
  remind: {
    run: remindSigner,
    label: texts.envelope.remind,
    labelFor: texts.envelope.remindFor,
    doneTitle: texts.envelope.remindedTitle,
    done: texts.envelope.reminded,
  },
  renew: {
    run: renewSigningLink,
    label: texts.envelope.renewLink,
    labelFor: texts.envelope.renewLinkFor,
    doneTitle: texts.envelope.linkRenewedTitle,
    done: texts.envelope.linkRenewed,
  },
} as const;

function SignerActionButton({
  envelopeId,
  signer,
  action,
  onChanged,
}: {
  envelopeId: string;
  signer: WaitingSigner;
  action: keyof typeof ACTIONS;
  onChanged: (envelope: EnvelopeView | null) => void;
}) {
  const { run, label, labelFor, doneTitle, done } = ACTIONS[action];
  const mutation = useMutation({
    mutationFn: () => run(envelopeId, signer.id),
    onSuccess: (envelope) => {
      onChanged(envelope);
      notifications.show({ title: doneTitle, message: done(signer.name) });
    },
    onError: (error) => {
      notifications.show({ color: 'red', message: errorMessage(error) });
      // Signed or withdrawn meanwhile: the page shows what the envelope is now.
      onChanged(null);
    },
  });
  return (
    <Button
      size="xs"
      variant="default"
      loading={mutation.isPending}
      onClick={() => mutation.mutate()}
      aria-label={labelFor(signer.name)}
    >
      {label}
    </Button>
  );
}

/**
 * `Erinnern` (while the signer's link works) and `Link erneuern` for a signer who waits to sign.
 * `onChanged` gets the envelope as it is after the action, or null when the page should reload it.
 */
export function SignerActions({
  envelopeId,
  signer,
  onChanged,
}: {
  envelopeId: string;
  signer: WaitingSigner;
  onChanged: (envelope: EnvelopeView | null) => void;
}) {
  const expired = !signer.linkExpiresAt || new Date(signer.linkExpiresAt) <= new Date();
  return (
    <Group gap="xs">
      {!expired && (
        <SignerActionButton envelopeId={envelopeId} signer={signer} action="remind" onChanged={onChanged} />
      )}
      <SignerActionButton envelopeId={envelopeId} signer={signer} action="renew" onChanged={onChanged} />
    </Group>
  );
}
