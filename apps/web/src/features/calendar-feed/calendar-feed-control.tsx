import { Alert, Button, CopyButton, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeedCreated } from '@vertragsgenerator/domain';
import { useEffect, useId, useRef, useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { calendarFeedQueryOptions, createCalendarFeed, revokeCalendarFeed } from './api';
import { calendarFeedTexts as t } from './texts';

const day = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium' });

/**
 * „Kalender abonnieren“: the user's personal subscribe link to the deadlines of their contracts —
 * made (or replaced), shown once to copy, and revoked. The server keeps only the link's fingerprint.
 */
export function CalendarFeedControl() {
  const headingId = useId();
  const queryClient = useQueryClient();
  const state = useQuery(calendarFeedQueryOptions);
  const [created, setCreated] = useState<CalendarFeedCreated | null>(null);
  const [confirming, setConfirming] = useState(false);
  const reload = () => queryClient.invalidateQueries({ queryKey: calendarFeedQueryOptions.queryKey });
  const create = useMutation({
    mutationFn: createCalendarFeed,
    onSuccess: (feed) => {
      setCreated(feed);
      void reload();
    },
  });
  const revoke = useMutation({
    mutationFn: revokeCalendarFeed,
    onSuccess: () => {
      setConfirming(false);
      setCreated(null);
      notifications.show({ color: 'green', message: t.revoked });
      void reload();
    },
  });
  const failed = create.error ?? revoke.error;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t.heading}
        </Title>
        <Text size="sm">{t.intro}</Text>
        {state.isPending && <SectionLoader />}
        {state.isError && <Alert color="red">{errorMessage(state.error)}</Alert>}
        {created ? (
          <CreatedLink url={created.url} onDone={() => setCreated(null)} />
        ) : (
          state.data && (
            <>
              <Text size="sm">
                {state.data.exists && state.data.createdAt
                  ? t.since(day.format(new Date(state.data.createdAt)))
                  : t.none}
              </Text>
              {state.data.exists && (
                <Text size="sm" c="dimmed">
                  {t.replaceHint}
                </Text>
              )}
              {confirming ? (
                <Stack gap="xs">
                  <Text size="sm">{t.revokeQuestion}</Text>
                  <Group>
                    <Button color="red" loading={revoke.isPending} onClick={() => revoke.mutate()}>
                      {t.revokeConfirm}
                    </Button>
                    <Button variant="default" onClick={() => setConfirming(false)}>
                      {t.cancel}
                    </Button>
                  </Group>
                </Stack>
              ) : (
                <Group>
                  <Button loading={create.isPending} onClick={() => create.mutate()}>
                    {state.data.exists ? t.replace : t.create}
                  </Button>
                  {state.data.exists && (
                    <Button variant="default" color="red" onClick={() => setConfirming(true)}>
                      {t.revoke}
                    </Button>
                  )}
                </Group>
              )}
            </>
          )
        )}
        {failed && <Alert color="red">{errorMessage(failed)}</Alert>}
      </Stack>
    </Paper>
  );
}

/** The new link, once: focus lands on the copy button, so a keyboard user copies it at once. */
function CreatedLink({ url, onDone }: { url: string; onDone: () => void }) {
  const copyRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    copyRef.current?.focus();
  }, []);
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        {t.created}
      </Text>
      <Text size="sm">{t.once}</Text>
      <TextInput label={t.urlLabel} value={url} readOnly onFocus={(event) => event.currentTarget.select()} />
      <Text size="sm" c="dimmed">
        {t.how}
      </Text>
      <Group>
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Button ref={copyRef} onClick={copy} color={copied ? 'green.8' : undefined}>
              {copied ? t.copied : t.copy}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={onDone}>
          {t.done}
        </Button>
      </Group>
    </Stack>
  );
}
