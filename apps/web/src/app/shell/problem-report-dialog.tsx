import { Alert, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { apiFetch } from '@/lib/api';
import { storedMatchId } from '@/lib/storage';
import { texts } from '@/texts';

interface SupportReport {
  subject: string;
  msgBody: string;
  matchId?: string;
}

/**
 * The reporter's identity comes from the token on the server
 * (docs/decisions.md#support-reporter-from-the-token), so only the report travels.
 */
async function sendSupportEmail(report: SupportReport): Promise<void> {
  await apiFetch('/backend/sendSupportEmail', { method: 'POST', body: report });
}

export function ProblemReportButton() {
  const [opened, { open, close }] = useDisclosure(false);
  const [subject, setSubject] = useState('');
  const [description, setDescription] = useState('');
  const report = useMutation({ mutationFn: sendSupportEmail });

  const trimmedSubject = subject.trim();
  const trimmedDescription = description.trim();
  const complete = trimmedSubject !== '' && trimmedDescription !== '';

  function handleClose() {
    report.reset();
    close();
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!complete) return;
    const matchId = storedMatchId();
    report.mutate(
      { subject: trimmedSubject, msgBody: trimmedDescription, ...(matchId ? { matchId } : {}) },
      {
        onSuccess: () => {
          notifications.show({
            color: 'green',
            title: texts.problemReport.sentTitle,
            message: texts.problemReport.sent(trimmedSubject),
          });
          setSubject('');
          setDescription('');
          handleClose();
        },
      },
    );
  }

  return (
    <>
      <Button variant="default" onClick={open}>
        {texts.problemReport.open}
      </Button>
      <Modal opened={opened} onClose={handleClose} title={texts.problemReport.title}>
        <form onSubmit={handleSubmit}>
          <Stack>
            <TextInput
              label={texts.problemReport.subject}
              required
              value={subject}
              onChange={(event) => setSubject(event.currentTarget.value)}
            />
            <Textarea
              label={texts.problemReport.description}
              required
              rows={5}
              value={description}
              onChange={(event) => setDescription(event.currentTarget.value)}
            />
            {report.isError && <Alert color="red">{texts.problemReport.failed}</Alert>}
            <Group justify="flex-end">
              <Button variant="default" onClick={handleClose}>
                {texts.problemReport.cancel}
              </Button>
              <Button type="submit" disabled={!complete} loading={report.isPending}>
                {texts.problemReport.submit}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
