import { Button, Code, CopyButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect, useId, useRef } from 'react';

/** The words around a secret the server shows only once (an API token, a webhook's signing secret). */
export interface SecretShownOnceTexts {
  heading: string;
  /** That it is shown only now. */
  once: string;
  copy: string;
  copied: string;
  done: string;
}

/**
 * A secret, once, right after it was made: focus lands on the copy button, so a keyboard user copies
 * it at once; `children` add what else belongs with it (e.g. the endpoint's ID).
 */
export function SecretShownOnce({
  secret,
  secretLabel,
  texts,
  onDone,
  children,
}: {
  secret: string;
  /** The code block's accessible name, where its heading alone does not name it. */
  secretLabel?: string;
  texts: SecretShownOnceTexts;
  onDone: () => void;
  children?: ReactNode;
}) {
  const headingId = useId();
  const copyRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    copyRef.current?.focus();
  }, []);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId} bg="green.0">
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {texts.heading}
        </Title>
        <Text size="sm">{texts.once}</Text>
        <Code block {...(secretLabel ? { 'aria-label': secretLabel } : {})}>
          {secret}
        </Code>
        {children}
        <Group>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button ref={copyRef} onClick={copy} color={copied ? 'green.8' : undefined}>
                {copied ? texts.copied : texts.copy}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={onDone}>
            {texts.done}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
