import { Stack, Title } from '@mantine/core';
import { texts } from '../../texts';

export function StartPage() {
  return (
    <Stack>
      <Title order={1}>{texts.start.heading}</Title>
    </Stack>
  );
}
