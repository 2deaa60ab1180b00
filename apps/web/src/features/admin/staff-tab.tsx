import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PermissionLevel, StaffChange, StaffEntry } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { AddColleagueForm } from './add-colleague-form';
import { ADMINISTRATION_QUERY_KEY, changeStaffMember, removeStaffMember, staffQueryOptions } from './api';
import { adminTexts, dateTime } from './texts';

const t = adminTexts.staff;

/** The staff directory: levels, the administrator capability, colleagues added and removed. */
export function StaffTab() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const staff = useQuery(staffQueryOptions(debounced));

  return (
    <Stack>
      <AddColleagueForm />
      <TextInput
        label={t.search}
        type="search"
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={420}
      />
      {staff.isPending && <SectionLoader />}
      {staff.isError && <Alert color="red">{errorMessage(staff.error)}</Alert>}
      {staff.isSuccess && staff.data.length === 0 && <Text>{t.none}</Text>}
      {staff.isSuccess && staff.data.length > 0 && (
        <Table.ScrollContainer minWidth={900}>
          <Table verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t.name}</Table.Th>
                <Table.Th>{t.email}</Table.Th>
                <Table.Th>{t.level}</Table.Th>
                <Table.Th>{t.administrator}</Table.Th>
                <Table.Th>{t.lastSignIn}</Table.Th>
                <Table.Th>{t.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {staff.data.map((entry) => (
                <StaffRow key={entry.email} entry={entry} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function StaffRow({ entry }: { entry: StaffEntry }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ADMINISTRATION_QUERY_KEY });
  // A refusal (someone else changed the entry, the last administrator) is shown, and the list reloaded
  // so that what is on screen is what is stored.
  const failed = (error: Error) => {
    notifications.show({ color: 'red', message: errorMessage(error) });
    void refresh();
  };
  const change = useMutation({
    mutationFn: (patch: Omit<StaffChange, 'version'>) =>
      changeStaffMember(entry.email, { ...patch, version: entry.version }),
    onSuccess: () => {
      notifications.show({ color: 'green', message: t.changed(entry.name) });
      void refresh();
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => removeStaffMember(entry.email, entry.version),
    onSuccess: () => {
      setConfirming(false);
      notifications.show({ color: 'green', message: t.removed(entry.name) });
      void refresh();
    },
    onError: (error) => {
      setConfirming(false);
      failed(error);
    },
  });

  return (
    <Table.Tr>
      <Table.Td>{entry.name}</Table.Td>
      <Table.Td>{entry.email}</Table.Td>
      <Table.Td>
        <Select
          aria-label={t.levelOf(entry.name)}
          data={adminTexts.levelOptions}
          value={entry.permission === null ? 'none' : String(entry.permission)}
          onChange={(value) =>
            value &&
            change.mutate({ permission: value === 'none' ? null : (Number(value) as PermissionLevel) })
          }
          allowDeselect={false}
          disabled={change.isPending}
          w={170}
        />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Switch
            aria-label={t.administratorOf(entry.name)}
            checked={entry.administrator}
            disabled={change.isPending || entry.administratorByConfiguration}
            onChange={(event) => change.mutate({ administrator: event.currentTarget.checked })}
          />
          {entry.administratorByConfiguration && <Badge variant="outline">{t.byConfiguration}</Badge>}
        </Group>
      </Table.Td>
      <Table.Td>{entry.lastSignInAt ? dateTime.format(new Date(entry.lastSignInAt)) : t.never}</Table.Td>
      <Table.Td>
        <Button
          variant="default"
          size="xs"
          aria-label={t.removeOf(entry.name)}
          onClick={() => setConfirming(true)}
          disabled={entry.administratorByConfiguration}
        >
          {t.remove}
        </Button>
        <Modal opened={confirming} onClose={() => setConfirming(false)} title={t.removeTitle(entry.name)}>
          <Stack>
            <Text>{t.removeText}</Text>
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
  );
}
