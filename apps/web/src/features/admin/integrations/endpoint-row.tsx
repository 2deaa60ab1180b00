import { Badge, Button, Code, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { WEBHOOK_EVENT_LABELS, type WebhookDelivery, type WebhookEndpoint } from '@vertragsgenerator/domain';
import { useId, useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { ADMINISTRATION_QUERY_KEY } from '../api';
import { dateTime } from '../texts';
import { deleteWebhook, deliveriesQueryOptions, resendDelivery, setWebhookActive } from './api';
import { integrationTexts as t } from './texts';

const format = (iso: string) => dateTime.format(new Date(iso));

/** One endpoint: its state, pause or activate, its deliveries below it, delete after a question. */
export function EndpointRow({ endpoint }: { endpoint: WebhookEndpoint }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const deliveriesId = useId();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ADMINISTRATION_QUERY_KEY });
  const toggle = useMutation({
    mutationFn: () => setWebhookActive(endpoint.id, !endpoint.active),
    onSuccess: (after) => {
      notifications.show({
        color: 'green',
        message: after.active ? t.activated(after.url) : t.paused_(after.url),
      });
      void refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const remove = useMutation({
    mutationFn: () => deleteWebhook(endpoint.id),
    onSuccess: () => {
      setConfirming(false);
      notifications.show({ color: 'green', message: t.removed(endpoint.url) });
      void refresh();
    },
  });
  return (
    <>
      <Table.Tr>
        <Table.Td>
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            {endpoint.url}
          </Text>
          {endpoint.description && <Text size="xs">{endpoint.description}</Text>}
        </Table.Td>
        <Table.Td>
          <Code style={{ whiteSpace: 'nowrap' }}>{endpoint.id}</Code>
        </Table.Td>
        <Table.Td>
          <Group gap={4}>
            {endpoint.events.map((type) => (
              <Code key={type} title={WEBHOOK_EVENT_LABELS[type]}>
                {type}
              </Code>
            ))}
          </Group>
        </Table.Td>
        <Table.Td>
          <StateBadge endpoint={endpoint} format={format} />
        </Table.Td>
        <Table.Td>{t.waitingCounts(endpoint.pending, endpoint.failed)}</Table.Td>
        <Table.Td>
          <Group gap="xs" wrap="nowrap">
            <Button
              variant="default"
              size="xs"
              aria-label={endpoint.active ? t.pauseOf(endpoint.url) : t.activateOf(endpoint.url)}
              loading={toggle.isPending}
              onClick={() => toggle.mutate()}
            >
              {endpoint.active ? t.pause : t.activate}
            </Button>
            <Button
              variant="default"
              size="xs"
              aria-label={t.showDeliveriesOf(endpoint.url)}
              aria-expanded={showDeliveries}
              aria-controls={showDeliveries ? deliveriesId : undefined}
              onClick={() => setShowDeliveries((shown) => !shown)}
            >
              {showDeliveries ? t.hideDeliveries : t.showDeliveries}
            </Button>
            <Button
              variant="default"
              color="red.8"
              size="xs"
              aria-label={t.removeOf(endpoint.url)}
              onClick={() => setConfirming(true)}
            >
              {t.remove}
            </Button>
          </Group>
          <Modal opened={confirming} onClose={() => setConfirming(false)} title={t.removeTitle(endpoint.url)}>
            <Stack>
              <Text>{t.removeText}</Text>
              {remove.isError && (
                <Text c="red.8" size="sm" role="alert">
                  {errorMessage(remove.error)}
                </Text>
              )}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
                  {t.cancel}
                </Button>
                <Button color="red.8" loading={remove.isPending} onClick={() => remove.mutate()}>
                  {t.confirmRemove}
                </Button>
              </Group>
            </Stack>
          </Modal>
        </Table.Td>
      </Table.Tr>
      {showDeliveries && (
        <Table.Tr>
          <Table.Td colSpan={6} id={deliveriesId}>
            <Deliveries endpoint={endpoint} />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const deliveries = useQuery(deliveriesQueryOptions(endpoint.id));
  const headingId = useId();
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        {t.deliveries(endpoint.url)}
      </Title>
      {deliveries.isPending ? (
        <SectionLoader />
      ) : deliveries.isError ? (
        <Text c="red.8" role="alert">
          {errorMessage(deliveries.error)}
        </Text>
      ) : deliveries.data.length === 0 ? (
        <Text size="sm">{t.noDeliveries}</Text>
      ) : (
        <Table aria-labelledby={headingId}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t.event}</Table.Th>
              <Table.Th>{t.status}</Table.Th>
              <Table.Th>{t.created}</Table.Th>
              <Table.Th>{t.attempts}</Table.Th>
              <Table.Th>{t.actions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {deliveries.data.map((delivery) => (
              <DeliveryRow key={delivery.id} delivery={delivery} />
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

const STATUS_COLORS = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;

function DeliveryRow({ delivery }: { delivery: WebhookDelivery }) {
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: () => resendDelivery(delivery.id),
    onSuccess: () => {
      notifications.show({ color: 'green', message: t.resent });
      void queryClient.invalidateQueries({ queryKey: ADMINISTRATION_QUERY_KEY });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm">{delivery.type}</Text>
        <Code>{delivery.messageId}</Code>
      </Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLORS[delivery.status]} variant="light">
          {t.statuses[delivery.status]}
        </Badge>
      </Table.Td>
      <Table.Td>{format(delivery.createdAt)}</Table.Td>
      <Table.Td>
        {delivery.attempts.length === 0 ? (
          <Text size="sm">{t.noAttempt}</Text>
        ) : (
          <Stack gap={2} component="ol" m={0} pl="md">
            {delivery.attempts.map((attempt) => (
              <Text key={attempt.at} size="sm" component="li">
                {t.attempt(format(attempt.at), attempt.statusCode, attempt.error)}
              </Text>
            ))}
          </Stack>
        )}
        {delivery.nextAttemptAt && delivery.attempts.length > 0 && (
          <Text size="xs">{t.nextAttempt(format(delivery.nextAttemptAt))}</Text>
        )}
      </Table.Td>
      <Table.Td>
        <Button
          variant="default"
          size="xs"
          aria-label={t.resendOf(delivery.type, delivery.messageId)}
          loading={resend.isPending}
          onClick={() => resend.mutate()}
        >
          {t.resend}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function StateBadge({ endpoint, format }: { endpoint: WebhookEndpoint; format: (iso: string) => string }) {
  if (endpoint.failingSince)
    return (
      <Badge color="red" variant="light">
        {t.failingSince(format(endpoint.failingSince))}
      </Badge>
    );
  return endpoint.active ? (
    <Badge color="green" variant="light">
      {t.active}
    </Badge>
  ) : (
    <Badge color="gray" variant="light">
      {t.paused}
    </Badge>
  );
}
