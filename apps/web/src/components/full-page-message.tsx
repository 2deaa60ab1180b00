import { Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The whole page's answer where nothing else can be shown: a link that no longer works, a page that could
 * not load, what became of a signature. The pages people open from a mail use it (signing, review).
 */
export function FullPageMessage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="xl" mt="xl">
      <Stack>
        <Title order={1}>{title}</Title>
        {children}
      </Stack>
    </Paper>
  );
}
