import { Alert, Button, type ButtonProps, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { errorMessage } from '@/lib/api';
import { useSingleMutation } from '@/lib/use-single-mutation';
import { reviewTexts } from './texts';

export interface ConfirmButtonProps {
  /** The button's text, and the confirming button's in the dialog. */
  label: string;
  /** The button's accessible name where several such buttons are listed; its text stays `label`. */
  ariaLabel?: string;
  title: string;
  text: ReactNode;
  /** The confirming button's text, where it says more than the button that opened the dialog. */
  confirmLabel?: string;
  /** Runs on confirmation; the dialog closes once it succeeded and shows why it failed otherwise. */
  action: () => Promise<unknown>;
  disabled?: boolean;
  size?: ButtonProps['size'];
  variant?: ButtonProps['variant'];
  color?: ButtonProps['color'];
}

/**
 * A button whose action needs a confirmation: the dialog's focus starts on „Abbrechen“, so that Enter
 * on a keyboard does not confirm by accident.
 */
export function ConfirmButton({
  label,
  ariaLabel,
  title,
  text,
  confirmLabel = label,
  action,
  disabled,
  size,
  variant = 'default',
  color,
}: ConfirmButtonProps) {
  const [opened, dialog] = useDisclosure(false);
  const run = useSingleMutation({ mutationFn: action, onSuccess: () => dialog.close() });
  return (
    <>
      <Button
        size={size}
        variant={variant}
        color={color}
        disabled={disabled}
        aria-label={ariaLabel}
        onClick={() => {
          run.reset();
          dialog.open();
        }}
      >
        {label}
      </Button>
      <Modal opened={opened} onClose={dialog.close} title={title}>
        <Stack>
          <Text size="sm">{text}</Text>
          {run.isError && (
            <Alert color="red" role="alert">
              {errorMessage(run.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={dialog.close} data-autofocus>
              {reviewTexts.actions.cancel}
            </Button>
            <Button color={color} loading={run.isPending} onClick={() => run.mutate(undefined)}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
