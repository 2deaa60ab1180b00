import { Alert, Button, Checkbox, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorMessage } from '@/lib/api';
import { sendApprovalAgain } from '@/lib/approval-send-again';
import { useSingleMutation } from '@/lib/use-single-mutation';

export const sendAgainTexts = {
  confirm: 'Ich habe in DocuSign geprüft: Der Umschlag ist dort nicht angekommen.',
  description:
    'Erst prüfen, dann senden: ist der Umschlag doch bei DocuSign, entstünde er dort ein zweites Mal.',
  button: 'Erneut an DocuSign senden',
  sent: 'Der Umschlag wurde an DocuSign gesendet.',
};

/**
 * The way out of an approved send DocuSign left open, on /freigaben and in the sender view: whoever
 * asked (or an administrator) looks in DocuSign first, confirms the envelope is not there, and sends it
 * again. `onSettled` reloads what shows the request, whatever the answer.
 */
export function ApprovalSendAgain({ requestId, onSettled }: { requestId: string; onSettled: () => void }) {
  const [checked, setChecked] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const again = useSingleMutation({
    mutationFn: (id: string) => sendApprovalAgain(id),
    onError: (error) => {
      setProblem(errorMessage(error));
      onSettled();
    },
    onSuccess: (answer) => {
      setProblem(null);
      if (answer.send?.state === 'done') notifications.show({ color: 'green', message: sendAgainTexts.sent });
      onSettled();
    },
  });
  return (
    <Stack gap="xs" mt="xs" maw={720}>
      <Checkbox
        label={sendAgainTexts.confirm}
        description={sendAgainTexts.description}
        checked={checked}
        onChange={(event) => setChecked(event.currentTarget.checked)}
      />
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <Group>
        <Button disabled={!checked} loading={again.isPending} onClick={() => again.mutate(requestId)}>
          {sendAgainTexts.button}
        </Button>
      </Group>
    </Stack>
  );
}
