import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { texts } from '@/texts';

/** Someone saved a newer version than the one the edit started from: the server's words, and the way on. */
export function ConflictModal({
  message,
  onReload,
  onCancel,
}: {
  /** The server's message naming who saved when; null while there is no conflict. */
  message: string | null;
  onReload: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal opened={message !== null} onClose={onCancel} title={texts.editor.conflictTitle} centered>
      <Stack>
        <Text>{message}</Text>
        <Text size="sm" c="dimmed">
          {texts.editor.conflictHint}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {texts.editor.cancel}
          </Button>
          <Button onClick={onReload}>{texts.editor.reload}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Asks before unsaved changes are thrown away by opening another version or leaving the page. */
export function DiscardChangesModal({
  opened,
  onDiscard,
  onKeep,
}: {
  opened: boolean;
  onDiscard: () => void;
  onKeep: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onKeep} title={texts.editor.discardTitle} centered>
      <Stack>
        <Text>{texts.editor.discardText}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onKeep}>
            {texts.editor.keepEditing}
          </Button>
          <Button color="red" onClick={onDiscard}>
            {texts.editor.discard}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
