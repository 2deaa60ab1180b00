import { Alert, Button, Group, Modal, Select, Stack, Table, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccessRequest, PermissionLevel } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { ADMINISTRATION_QUERY_KEY, accessRequestsQueryOptions, declineAccess, grantAccess } from './api';
import { adminTexts, dateTime } from './texts';

const t = adminTexts.requests;

/** Open access requests, oldest first: grant with a level, or decline with a reason. */
export function AccessRequestsTab() {
  const requests = useQuery(accessRequestsQueryOptions);
  if (requests.isPending) return <SectionLoader />;
  if (requests.isError) return <Alert color="red">{errorMessage(requests.error)}</Alert>;
  if (requests.data.length === 0) return <Text>{t.none}</Text>;
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t.who}</Table.Th>
            <Table.Th>{t.when}</Table.Th>
            <Table.Th>{t.message}</Table.Th>
            <Table.Th>{t.decision}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {requests.data.map((request) => (
            <RequestRow key={request.id} request={request} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function RequestRow({ request }: { request: AccessRequest }) {
  const queryClient = useQueryClient();
  const [level, setLevel] = useState<string | null>(null);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const done = (text: string) => {
    notifications.show({ color: 'green', message: text });
    void queryClient.invalidateQueries({ queryKey: ADMINISTRATION_QUERY_KEY });
  };
  const grant = useMutation({
    mutationFn: () => grantAccess(request.id, Number(level) as PermissionLevel),
    onSuccess: () => done(t.granted(request.name)),
  });
  const decline = useMutation({
    mutationFn: () => declineAccess(request.id, reason),
    onSuccess: () => {
      setDeclining(false);
      done(t.declined(request.name));
    },
  });
  const reasonError =
    decline.error instanceof ApiRequestError ? decline.error.fields.reason?.join(' ') : undefined;

  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={500}>{request.name}</Text>
        <Text size="sm">{request.email}</Text>
      </Table.Td>
      <Table.Td>{dateTime.format(new Date(request.requestedAt))}</Table.Td>
      <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{request.message ?? t.noMessage}</Table.Td>
      <Table.Td>
        <Stack gap="xs">
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <Select
              aria-label={t.level(request.name)}
              placeholder={adminTexts.staff.level}
              data={adminTexts.levelOptions.filter((o) => o.value !== 'none')}
              value={level}
              onChange={setLevel}
              w={170}
            />
            <Button disabled={level === null} loading={grant.isPending} onClick={() => grant.mutate()}>
              {t.grant}
            </Button>
            <Button variant="default" onClick={() => setDeclining(true)}>
              {t.decline}
            </Button>
          </Group>
          {grant.isError && (
            <Text size="sm" c="red.8" role="alert">
              {errorMessage(grant.error)}
            </Text>
          )}
        </Stack>
        <Modal opened={declining} onClose={() => setDeclining(false)} title={t.declineTitle(request.name)}>
          <Stack
            component="form"
            onSubmit={(event) => {
              event.preventDefault();
              decline.mutate();
            }}
          >
            <Textarea
              label={t.reason}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              error={reasonError}
              required
              data-autofocus
            />
            {decline.isError && !reasonError && <Alert color="red">{errorMessage(decline.error)}</Alert>}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeclining(false)}>
                {adminTexts.staff.cancel}
              </Button>
              <Button type="submit" color="red.8" loading={decline.isPending}>
                {t.confirmDecline}
              </Button>
            </Group>
          </Stack>
        </Modal>
      </Table.Td>
    </Table.Tr>
  );
}
