import { queryOptions } from '@tanstack/react-query';
import {
  type ContractReminderSetting,
  type ContractReminderSettingsChange,
  contractReminderSettingSchema,
} from '@vertragsgenerator/domain';
import { apiJson } from '@/lib/api';
import { ADMINISTRATION_QUERY_KEY } from './api';

export const contractReminderSettingsQueryOptions = queryOptions({
  queryKey: [...ADMINISTRATION_QUERY_KEY, 'contract-reminder-settings'],
  queryFn: () => apiJson('/backend/contract-reminder-settings', contractReminderSettingSchema.array()),
});

/** The reminders' lead times of the companies named; answers every company after the change. */
export function changeContractReminderSettings(
  change: ContractReminderSettingsChange,
): Promise<ContractReminderSetting[]> {
  return apiJson('/backend/contract-reminder-settings', contractReminderSettingSchema.array(), {
    method: 'PUT',
    body: change,
  });
}
