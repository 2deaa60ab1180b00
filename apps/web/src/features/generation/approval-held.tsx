import { Alert, Anchor, Button, Group, List, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { GenerationApprovalRequired } from '@vertragsgenerator/domain';
import { Link } from 'react-router';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { PATHS } from '@/lib/paths';
import { askForApproval } from './api';
import { approvalTexts as t } from './texts';

/** A request already waits for this document: for the person asking, that is the state they wanted. */
const isAlreadyWaiting = (error: unknown) =>
  error instanceof ApiRequestError && error.status === 409 && error.code === 'approval_pending';

/**
 * A generated document the rules hold back: why, in the rules' words, and `Zur Freigabe senden`; once
 * asked, that it waits and where its download comes from once released (the match's document list on
 * /start, or the link in the decision mail).
 */
export function ApprovalHeld({ held }: { held: GenerationApprovalRequired }) {
  const ask = useMutation({ mutationFn: () => askForApproval(held.documentId) });
  const waiting = ask.isSuccess || isAlreadyWaiting(ask.error);
  if (waiting) {
    return (
      <Alert color="blue" title={t.waitingTitle} role="group">
        <Stack gap="xs">
          <Text size="sm">{t.waiting}</Text>
          {/* The alert's own text colour, underlined: the theme's link blue reads 4.06:1 on its background. */}
          <Anchor component={Link} to={PATHS.start} size="sm" c="inherit" underline="always">
            {t.toStart}
          </Anchor>
        </Stack>
      </Alert>
    );
  }
  return (
    // Inside the flow's live region, which announces it: Mantine's own role `alert` would be a second one.
    <Alert color="yellow" title={t.heldTitle} role="group">
      <Stack gap="xs">
        <Text size="sm">{t.held}</Text>
        <List size="sm" spacing={2}>
          {held.reasonTexts.map((text) => (
            <List.Item key={text}>{text}</List.Item>
          ))}
        </List>
        {ask.isError && (
          <Text size="sm" c="red">
            {errorMessage(ask.error)}
          </Text>
        )}
        <Group>
          <Button type="button" onClick={() => ask.mutate()} loading={ask.isPending}>
            {t.ask}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
