import { Alert, List } from '@mantine/core';
import type { Hint } from '@vertragsgenerator/domain';
import { texts } from '@/texts';

/**
 * Plausibility warnings. They inform and never block (the user may know better), so they are a polite
 * status rather than an alert that interrupts a screen reader.
 */
export function MatchHints({ hints }: { hints: readonly Hint[] }) {
  if (hints.length === 0) return null;
  return (
    <Alert color="yellow" title={texts.match.hintsTitle} role="status">
      <List size="sm">
        {hints.map((hint) => (
          <List.Item key={hint.code}>{hint.message}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
