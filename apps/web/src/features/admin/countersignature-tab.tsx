import { Alert, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CountersignatureSetting } from '@vertragsgenerator/domain';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import { ADMINISTRATION_QUERY_KEY, changeCountersignature, countersignatureQueryOptions } from './api';
import { adminTexts, dateTime } from './texts';

const t = adminTexts.countersignature;

/**
 * Per document family the switch „Ohne Gegenzeichnung senden erlaubt“; the server keeps each change
 * with its audit entry, so the log reloads with it.
 */
export function CountersignatureTab() {
  const queryClient = useQueryClient();
  const settings = useQuery(countersignatureQueryOptions);
  const change = useMutation({
    mutationFn: ({ family, withoutAllowed }: Pick<CountersignatureSetting, 'family' | 'withoutAllowed'>) =>
      changeCountersignature(family, withoutAllowed),
    onSuccess: (all) => {
      queryClient.setQueryData(countersignatureQueryOptions.queryKey, all);
      void queryClient.invalidateQueries({ queryKey: ADMINISTRATION_QUERY_KEY });
      notifications.show({ color: 'green', message: t.saved });
    },
  });
  if (settings.isPending) return <SectionLoader />;
  if (settings.isError) return <Alert color="red">{errorMessage(settings.error)}</Alert>;
  return (
    <Stack maw={720}>
      <Text>{t.intro}</Text>
      {settings.data.map((setting) => (
        <Switch
          key={setting.family}
          label={t.switchLabel(setting.label)}
          description={
            setting.changedBy && setting.changedAt
              ? t.changed(setting.changedBy, dateTime.format(new Date(setting.changedAt)))
              : t.unchanged
          }
          checked={setting.withoutAllowed}
          disabled={change.isPending}
          onChange={(event) =>
            change.mutate({ family: setting.family, withoutAllowed: event.currentTarget.checked })
          }
        />
      ))}
      {change.isError && <Alert color="red">{errorMessage(change.error)}</Alert>}
    </Stack>
  );
}
