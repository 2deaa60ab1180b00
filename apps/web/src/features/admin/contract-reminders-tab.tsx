import { Alert, Button, Fieldset, Group, NumberInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Company, ContractReminderSetting } from '@vertragsgenerator/domain';
import { type FormEvent, useState } from 'react';
import { SectionLoader } from '@/components/section-loader';
import { ApiRequestError, errorMessage } from '@/lib/api';
import { ADMINISTRATION_QUERY_KEY } from './api';
import {
  changeContractReminderSettings,
  contractReminderSettingsQueryOptions,
} from './contract-reminders-api';
import { contractReminderTexts as t } from './contract-reminders-texts';
import { dateTime } from './texts';

/** The inputs' values: a number, or the text of an input while it holds none. */
type Draft = Record<Company, { noticeDays: number | string; endDays: number | string }>;

const draftOf = (settings: ContractReminderSetting[]): Draft =>
  Object.fromEntries(
    settings.map((s) => [s.company, { noticeDays: s.noticeDays, endDays: s.endDays }]),
  ) as Draft;

/**
 * /verwaltung → Vertragserinnerungen: per company, how many days before a contract's notice deadline
 * and before its end the reminder mails go out. The server checks the values (1–365) and keeps each
 * change with its audit entry, so the log reloads with it.
 */
export function ContractRemindersTab() {
  const settings = useQuery(contractReminderSettingsQueryOptions);
  if (settings.isPending) return <SectionLoader />;
  if (settings.isError) return <Alert color="red">{errorMessage(settings.error)}</Alert>;
  return <ContractRemindersForm settings={settings.data} />;
}

function ContractRemindersForm({ settings }: { settings: ContractReminderSetting[] }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const save = useMutation({
    mutationFn: () =>
      changeContractReminderSettings({
        settings: settings.map(({ company }) => ({
          company,
          noticeDays: Number(draft[company].noticeDays),
          endDays: Number(draft[company].endDays),
        })),
      }),
    onSuccess: (all) => {
      queryClient.setQueryData(contractReminderSettingsQueryOptions.queryKey, all);
      setDraft(draftOf(all));
      void queryClient.invalidateQueries({ queryKey: ADMINISTRATION_QUERY_KEY });
      notifications.show({ color: 'green', message: t.saved });
    },
  });
  const serverErrors = save.error instanceof ApiRequestError ? save.error.fields : {};
  const errorFor = (index: number, field: 'noticeDays' | 'endDays', value: number | string) =>
    value === '' ? t.notANumber : serverErrors[`settings.${index}.${field}`]?.[0];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={720}>
        <Text>{t.intro}</Text>
        {settings.map((setting, index) => {
          const values = draft[setting.company];
          const change = (field: 'noticeDays' | 'endDays', value: number | string) =>
            setDraft((current) => ({
              ...current,
              [setting.company]: { ...current[setting.company], [field]: value },
            }));
          return (
            <Fieldset key={setting.company} legend={setting.label} disabled={save.isPending}>
              <Stack gap="xs">
                <Group align="flex-start">
                  <NumberInput
                    label={t.noticeDays(setting.label)}
                    value={values.noticeDays}
                    onChange={(value) => change('noticeDays', value)}
                    allowDecimal={false}
                    allowNegative={false}
                    clampBehavior="none"
                    error={errorFor(index, 'noticeDays', values.noticeDays)}
                    w={280}
                  />
                  <NumberInput
                    label={t.endDays(setting.label)}
                    value={values.endDays}
                    onChange={(value) => change('endDays', value)}
                    allowDecimal={false}
                    allowNegative={false}
                    clampBehavior="none"
                    error={errorFor(index, 'endDays', values.endDays)}
                    w={280}
                  />
                </Group>
                <Text size="sm" c="dimmed">
                  {setting.changedBy && setting.changedAt
                    ? t.changed(setting.changedBy, dateTime.format(new Date(setting.changedAt)))
                    : t.unchanged}
                </Text>
              </Stack>
            </Fieldset>
          );
        })}
        {save.isError && <Alert color="red">{errorMessage(save.error)}</Alert>}
        <Group>
          <Button type="submit" loading={save.isPending}>
            {t.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
