import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ApiClient,
  type ApiClientCreate,
  type ApiClientCreated,
  apiClientCreatedSchema,
  apiClientSchema,
  PERMISSION_LABELS,
  type PermissionLevel,
} from '@vertragsgenerator/domain';
import { useId, useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { ApiRequestError, apiJson, errorMessage } from '@/lib/api';
import { ADMINISTRATION_QUERY_KEY } from './api';
import { SecretShownOnce } from './secret-shown-once';
import { adminTexts, dateTime } from './texts';

const t = adminTexts.apiClients;
const DAY_MS = 24 * 60 * 60 * 1000;
const LEVEL_OPTIONS = ([1, 2, 3] as const).map((level) => ({
  value: String(level),
  label: PERMISSION_LABELS[level],
}));

const apiClientsQueryOptions = queryOptions({
  queryKey: [...ADMINISTRATION_QUERY_KEY, 'api-clients'],
  queryFn: () => apiJson('/backend/admin/api-clients', apiClientSchema.array()),
});

function createApiClient(input: ApiClientCreate): Promise<ApiClientCreated> {
  return apiJson('/backend/admin/api-clients', apiClientCreatedSchema, { method: 'POST', body: input });
}

function revokeApiClient(id: string): Promise<ApiClient> {
  return apiJson(`/backend/admin/api-clients/${encodeURIComponent(id)}/revoke`, apiClientSchema, {
    method: 'POST',
  });
}

/** A day as `<input type="date">` writes it, `days` from today. */
const dayFromToday = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

/**
 * /verwaltung → API-Zugänge: systems that call the API with a token of their own. The token is shown
 * once, right after creating; the server keeps only its hash, so it cannot be shown again.
 */
export function ApiClientsTab() {
  const clients = useQuery(apiClientsQueryOptions);
  const [created, setCreated] = useState<ApiClientCreated | null>(null);
  return (
    <Stack maw={1100}>
      <Text>{t.intro}</Text>
      {created ? (
        <SecretShownOnce
          secret={created.token}
          secretLabel={t.token}
          texts={{ ...t, heading: t.tokenHeading(created.client.name), once: t.tokenOnce }}
          onDone={() => setCreated(null)}
        />
      ) : (
        <CreateForm onCreated={setCreated} />
      )}
      {clients.isPending ? (
        <SectionLoader />
      ) : clients.isError ? (
        <Alert color="red">{errorMessage(clients.error)}</Alert>
      ) : (
        <ClientTable clients={clients.data} />
      )}
    </Stack>
  );
}

function CreateForm({ onCreated }: { onCreated: (created: ApiClientCreated) => void }) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const [name, setName] = useState('');
  const [level, setLevel] = useState('1');
  const [expiresOn, setExpiresOn] = useState(() => dayFromToday(365));
  const create = useMutation({
    mutationFn: () => createApiClient({ name, permission: Number(level) as PermissionLevel, expiresOn }),
    onSuccess: (answer) => {
      setName('');
      onCreated(answer);
      void queryClient.invalidateQueries({ queryKey: ADMINISTRATION_QUERY_KEY });
    },
  });
  const fields = create.error instanceof ApiRequestError ? create.error.fields : {};
  const general = create.isError && Object.keys(fields).length === 0 ? errorMessage(create.error) : undefined;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack
        component="form"
        gap="sm"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <Title order={2} size="h4" id={headingId}>
          {t.create}
        </Title>
        <Group align="flex-start" gap="sm">
          <TextInput
            label={t.name}
            description={t.nameHint}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={fields.name?.join(' ')}
            required
            miw={280}
          />
          <Select
            label={t.level}
            data={LEVEL_OPTIONS}
            value={level}
            onChange={(value) => setLevel(value ?? '1')}
            allowDeselect={false}
            error={fields.permission?.join(' ')}
          />
          <TextInput
            label={t.expiresOn}
            type="date"
            value={expiresOn}
            onChange={(event) => setExpiresOn(event.currentTarget.value)}
            error={fields.expiresOn?.join(' ')}
            required
          />
        </Group>
        <Group>
          <Button type="submit" loading={create.isPending}>
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

function status(client: ApiClient): string {
  if (client.revokedAt)
    return t.revokedOn(dateTime.format(new Date(client.revokedAt)), client.revokedBy ?? '');
  return Date.parse(client.expiresAt) <= Date.now() ? t.expired : t.active;
}

function ClientTable({ clients }: { clients: ApiClient[] }) {
  if (clients.length === 0) return <Text>{t.none}</Text>;
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped aria-label={t.list}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.name}</Table.Th>
            <Table.Th>{t.level}</Table.Th>
            <Table.Th>{t.token}</Table.Th>
            <Table.Th>{t.lastUse}</Table.Th>
            <Table.Th>{t.validUntil}</Table.Th>
            <Table.Th>{t.status}</Table.Th>
            <Table.Th>{t.actions}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {clients.map((client) => (
            <ClientRow key={client.id} client={client} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ClientRow({ client }: { client: ApiClient }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const revoke = useMutation({
    mutationFn: () => revokeApiClient(client.id),
    onSuccess: () => {
      setConfirming(false);
      notifications.show({ color: 'green', message: t.revoked(client.name) });
      void queryClient.invalidateQueries({ queryKey: ADMINISTRATION_QUERY_KEY });
    },
  });
  // The last day the token is accepted: the server's expiry is the end of that day (UTC).
  const lastDay = new Date(Date.parse(client.expiresAt) - 1);
  return (
    <Table.Tr>
      <Table.Td>{client.name}</Table.Td>
      <Table.Td>{PERMISSION_LABELS[client.permission]}</Table.Td>
      <Table.Td>
        <Code>{client.tokenHint}</Code>
      </Table.Td>
      <Table.Td>{client.lastUsedAt ? dateTime.format(new Date(client.lastUsedAt)) : t.never}</Table.Td>
      <Table.Td>{lastDay.toLocaleDateString('de-DE', { timeZone: 'UTC' })}</Table.Td>
      <Table.Td>
        {client.revokedAt ? (
          <Text size="sm">{status(client)}</Text>
        ) : (
          <Badge variant="outline">{status(client)}</Badge>
        )}
      </Table.Td>
      <Table.Td>
        {!client.revokedAt && (
          <Button
            variant="default"
            size="xs"
            aria-label={t.revokeOf(client.name)}
            onClick={() => setConfirming(true)}
          >
            {t.revoke}
          </Button>
        )}
        <Modal opened={confirming} onClose={() => setConfirming(false)} title={t.revokeTitle(client.name)}>
          <Stack>
            <Text>{t.revokeText}</Text>
            {revoke.isError && (
              <Text c="red.8" size="sm" role="alert">
                {errorMessage(revoke.error)}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
                {t.cancel}
              </Button>
              <Button color="red.8" loading={revoke.isPending} onClick={() => revoke.mutate()}>
                {t.confirmRevoke}
              </Button>
            </Group>
          </Stack>
        </Modal>
      </Table.Td>
    </Table.Tr>
  );
}
