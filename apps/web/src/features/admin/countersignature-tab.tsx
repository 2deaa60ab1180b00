import { Alert, Group, Radio, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CountersignaturePosition, CountersignatureSetting } from '@vertragsgenerator/domain';
import { SectionLoader } from '@/components/section-loader';
import { errorMessage } from '@/lib/api';
import {
  ADMINISTRATION_QUERY_KEY,
  changeCountersignature,
  changeCountersignatureOrder,
  countersignatureOrderQueryOptions,
  countersignatureQueryOptions,
} from './api';
import { adminTexts, dateTime } from './texts';

const t = adminTexts.countersignature;

const changedText = (changedBy: string | null, changedAt: string | null) =>
  changedBy && changedAt ? t.changed(changedBy, dateTime.format(new Date(changedAt))) : t.unchanged;

/**
 * Per document family the switch „Ohne Gegenzeichnung senden erlaubt“, and per template whether the
 * company signs first or last; the server keeps each change with its audit entry, so the log reloads
 * with it.
 */
export function CountersignatureTab() {
  const queryClient = useQueryClient();
  const settings = useQuery(countersignatureQueryOptions);
  const saved = () => {
    void queryClient.invalidateQueries({ queryKey: ADMINISTRATION_QUERY_KEY });
    notifications.show({ color: 'green', message: t.saved });
  };
  const change = useMutation({
    mutationFn: ({ family, withoutAllowed }: Pick<CountersignatureSetting, 'family' | 'withoutAllowed'>) =>
      changeCountersignature(family, withoutAllowed),
    onSuccess: (all) => {
      queryClient.setQueryData(countersignatureQueryOptions.queryKey, all);
      saved();
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
          description={changedText(setting.changedBy, setting.changedAt)}
          checked={setting.withoutAllowed}
          disabled={change.isPending}
          onChange={(event) =>
            change.mutate({ family: setting.family, withoutAllowed: event.currentTarget.checked })
          }
        />
      ))}
      {change.isError && <Alert color="red">{errorMessage(change.error)}</Alert>}
      <CountersignatureOrderSection onSaved={saved} />
    </Stack>
  );
}

/** Per template that goes out for signature: the company's countersignatory first or last. */
function CountersignatureOrderSection({ onSaved }: { onSaved: () => void }) {
  const queryClient = useQueryClient();
  const order = useQuery(countersignatureOrderQueryOptions);
  const change = useMutation({
    mutationFn: ({ template, position }: { template: string; position: CountersignaturePosition }) =>
      changeCountersignatureOrder(template, position),
    onSuccess: (all) => {
      queryClient.setQueryData(countersignatureOrderQueryOptions.queryKey, all);
      onSaved();
    },
  });
  return (
    <Stack component="section" aria-labelledby="countersignature-order" mt="md">
      <Title order={3} id="countersignature-order">
        {t.orderHeading}
      </Title>
      <Text>{t.orderIntro}</Text>
      {order.isPending && <SectionLoader />}
      {order.isError && <Alert color="red">{errorMessage(order.error)}</Alert>}
      {order.data?.map((template) => (
        <Radio.Group
          key={template.template}
          label={template.template}
          description={changedText(template.changedBy, template.changedAt)}
          value={template.position}
          onChange={(position) =>
            change.mutate({ template: template.template, position: position as CountersignaturePosition })
          }
        >
          <Group mt="xs">
            <Radio value="last" label={t.last} disabled={change.isPending} />
            <Radio value="first" label={t.first} disabled={change.isPending} />
          </Group>
        </Radio.Group>
      ))}
      {change.isError && <Alert color="red">{errorMessage(change.error)}</Alert>}
    </Stack>
  );
}
