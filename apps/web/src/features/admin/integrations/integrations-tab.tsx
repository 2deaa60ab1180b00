import {
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpoint,
  type WebhookEndpointCreated,
  type WebhookEventType,
} from '@vertragsgenerator/domain';
import { useId, useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { ADMINISTRATION_QUERY_KEY } from '../api';
import { SecretShownOnce } from '../secret-shown-once';
import { registerWebhook, webhooksQueryOptions } from './api';
import { CrmWritebacksSection } from './crm-writebacks-section';
import { EndpointRow } from './endpoint-row';
import { integrationTexts as t } from './texts';

/**
 * /verwaltung → Integrationen: the webhook endpoints other systems receive events at. The signing
 * secret is shown once, right after adding; the list shows each endpoint's state and what waits.
 * Below them, the CRM write-backs that were given up.
 */
export function IntegrationsTab() {
  const endpoints = useQuery(webhooksQueryOptions);
  const [created, setCreated] = useState<WebhookEndpointCreated | null>(null);
  return (
    <Stack maw={1100}>
      <Text>{t.intro}</Text>
      {created ? (
        <SecretShownOnce
          secret={created.secret}
          texts={{ ...t, heading: t.secretHeading(created.url), once: t.secretOnce }}
          onDone={() => setCreated(null)}
        >
          <Text size="sm">
            {t.endpointId}: <Code>{created.id}</Code>
          </Text>
        </SecretShownOnce>
      ) : (
        <AddForm onAdded={setCreated} />
      )}
      {endpoints.isPending ? (
        <SectionLoader />
      ) : endpoints.isError ? (
        <Alert color="red">{errorMessage(endpoints.error)}</Alert>
      ) : (
        <EndpointTable endpoints={endpoints.data} />
      )}
      <CrmWritebacksSection />
    </Stack>
  );
}

function AddForm({ onAdded }: { onAdded: (created: WebhookEndpointCreated) => void }) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const add = useMutation({
    mutationFn: () => registerWebhook({ url, description, events: events as WebhookEventType[] }),
    onSuccess: (answer) => {
      setUrl('');
      setDescription('');
      setEvents([]);
      onAdded(answer);
      void queryClient.invalidateQueries({ queryKey: ADMINISTRATION_QUERY_KEY });
    },
  });
  const fields = add.error instanceof ApiRequestError ? add.error.fields : {};
  const eventErrors = Object.entries(fields)
    .filter(([key]) => key === 'events' || key.startsWith('events.'))
    .flatMap(([, messages]) => messages);
  const general = add.isError && Object.keys(fields).length === 0 ? errorMessage(add.error) : undefined;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack
        component="form"
        gap="sm"
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate();
        }}
      >
        <Title order={2} size="h4" id={headingId}>
          {t.add}
        </Title>
        <Group align="flex-start" gap="sm" grow>
          <TextInput
            label={t.url}
            description={t.urlHint}
            placeholder="https://crm.example.com/webhooks"
            value={url}
            onChange={(event) => setUrl(event.currentTarget.value)}
            error={fields.url?.join(' ')}
            required
          />
          <TextInput
            label={t.description}
            description={t.descriptionHint}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            error={fields.description?.join(' ')}
          />
        </Group>
        <Checkbox.Group
          label={t.events}
          description={t.eventsHint}
          value={events}
          onChange={setEvents}
          error={eventErrors.length > 0 ? eventErrors.join(' ') : undefined}
          required
        >
          <Stack gap={6} mt="xs">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <Checkbox
                key={type}
                value={type}
                label={
                  <>
                    {WEBHOOK_EVENT_LABELS[type]} <Code>{type}</Code>
                  </>
                }
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <Group>
          <Button type="submit" loading={add.isPending}>
            {t.submit}
          </Button>
        </Group>
        {general && (
          <Text c="red.8" size="sm" role="alert">
            {general}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function EndpointTable({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  if (endpoints.length === 0) return <Text>{t.none}</Text>;
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table aria-label={t.list}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.url}</Table.Th>
            <Table.Th>{t.id}</Table.Th>
            <Table.Th>{t.events}</Table.Th>
            <Table.Th>{t.state}</Table.Th>
            <Table.Th>{t.waiting}</Table.Th>
            <Table.Th>{t.actions}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {endpoints.map((endpoint) => (
            <EndpointRow key={endpoint.id} endpoint={endpoint} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
