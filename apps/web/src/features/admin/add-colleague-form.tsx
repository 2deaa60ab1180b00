import { Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PermissionLevel } from '@vertragsgenerator/domain';
import { useId, useState } from 'react';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { ADMINISTRATION_QUERY_KEY, addColleague } from './api';
import { adminTexts } from './texts';

const t = adminTexts.staff;

/** Adds a colleague before their first sign-in; the server checks every field and names the failing one. */
export function AddColleagueForm() {
  const queryClient = useQueryClient();
  const headingId = useId();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [level, setLevel] = useState('1');
  const add = useMutation({
    mutationFn: () =>
      addColleague({
        name,
        email,
        permission: level === 'none' ? null : (Number(level) as PermissionLevel),
      }),
    onSuccess: (entry) => {
      notifications.show({ color: 'green', message: t.added(entry.name) });
      setName('');
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: ADMINISTRATION_QUERY_KEY });
    },
  });
  const fields = add.error instanceof ApiRequestError ? add.error.fields : {};
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
        <Text size="sm">{t.addHint}</Text>
        <Group align="flex-start" gap="sm">
          <TextInput
            label={t.name}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={fields.name?.join(' ')}
            required
          />
          <TextInput
            label={t.email}
            type="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={fields.email?.join(' ')}
            required
          />
          <Select
            label={t.level}
            data={adminTexts.levelOptions}
            value={level}
            onChange={(value) => setLevel(value ?? 'none')}
            allowDeselect={false}
            error={fields.permission?.join(' ')}
          />
          <Button type="submit" mt={25} loading={add.isPending}>
            {t.add}
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
