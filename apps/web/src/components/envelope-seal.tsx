import { Stack, Text } from '@mantine/core';
import { type EnvelopeSeal, sealWords } from '@vertragsgenerator/domain';

/**
 * A completed envelope's seal, the same in /signaturen, a match's history and Prüfen: its state in one
 * line, and below it what its level proves. Plain text, so a screen reader reads it as it stands.
 */
export function EnvelopeSealText({
  seal,
  provider = 'builtin',
}: {
  seal: EnvelopeSeal;
  provider?: 'builtin' | 'docusign';
}) {
  const words = sealWords(seal, provider);
  return (
    <Stack gap={0}>
      <Text size="sm">{words.status}</Text>
      {words.explanation && (
        <Text size="xs" c="dimmed">
          {words.explanation}
        </Text>
      )}
    </Stack>
  );
}
