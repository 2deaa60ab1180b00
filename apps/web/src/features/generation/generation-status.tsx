import { Alert, Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { texts } from '@/texts';
import { ApprovalHeld } from './approval-held';
import { GENERATION_ATTEMPTS, type Generation } from './use-generation';

/** Progress with its step label, the final error, and the way out of a blocked new tab. */
export function GenerationStatus({ generation }: { generation: Generation }) {
  const { step, attempt, error, running, blockedUrl, held } = generation.state;
  const label = step === null ? null : texts.generation.steps[step];
  return (
    <>
      {/* Always in the page: a live region that appears together with its first words is often not read. */}
      <div role="status">
        {step !== null && label !== null && (
          <Stack gap={4}>
            <Progress.Root size="lg">
              {/* Mantine's own aria values would overwrite the step label: we set them all ourselves. */}
              <Progress.Section
                value={step}
                animated={running}
                withAria={false}
                role="progressbar"
                aria-label={texts.generation.progressLabel}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={step}
                aria-valuetext={`${step} % – ${label}`}
              />
            </Progress.Root>
            <Text size="sm">
              {step} % – {label}
              {attempt > 1 && ` (${texts.generation.attempt(attempt, GENERATION_ATTEMPTS)})`}
            </Text>
          </Stack>
        )}
        {/* In the live region: that the document waits for an approval is the answer to the click. */}
        {held !== null && <ApprovalHeld key={held.documentId} held={held} />}
      </div>
      {error !== null && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Modal
        opened={blockedUrl !== null}
        onClose={generation.dismissBlocked}
        title={texts.generation.popupTitle}
        centered
      >
        <Stack>
          <Text>{texts.generation.popupText}</Text>
          <Text size="sm" c="dimmed">
            {texts.generation.popupHelp}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={generation.dismissBlocked}>
              {texts.close}
            </Button>
            <Button onClick={generation.openBlockedHere}>{texts.generation.openHere}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
