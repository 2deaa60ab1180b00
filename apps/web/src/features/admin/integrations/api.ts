import { queryOptions } from '@tanstack/react-query';
import {
  type CrmWritebacks,
  crmWritebacksSchema,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointCreate,
  type WebhookEndpointCreated,
  webhookDeliverySchema,
  webhookEndpointCreatedSchema,
  webhookEndpointSchema,
} from '@vertragsgenerator/domain';
import { apiFetch, apiJson } from '@/lib/api';
import { ADMINISTRATION_QUERY_KEY } from '../api';

export const webhooksQueryOptions = queryOptions({
  queryKey: [...ADMINISTRATION_QUERY_KEY, 'webhooks'],
  queryFn: () => apiJson('/backend/admin/webhooks', webhookEndpointSchema.array()),
});

export const deliveriesQueryOptions = (endpointId: string) =>
  queryOptions({
    queryKey: [...ADMINISTRATION_QUERY_KEY, 'webhooks', endpointId, 'deliveries'],
    queryFn: (): Promise<WebhookDelivery[]> =>
      apiJson(
        `/backend/admin/webhooks/${encodeURIComponent(endpointId)}/deliveries`,
        webhookDeliverySchema.array(),
      ),
  });

export function registerWebhook(input: WebhookEndpointCreate): Promise<WebhookEndpointCreated> {
  return apiJson('/backend/admin/webhooks', webhookEndpointCreatedSchema, { method: 'POST', body: input });
}

export function setWebhookActive(id: string, active: boolean): Promise<WebhookEndpoint> {
  return apiJson(`/backend/admin/webhooks/${encodeURIComponent(id)}/active`, webhookEndpointSchema, {
    method: 'PUT',
    body: { active },
  });
}

export async function deleteWebhook(id: string): Promise<void> {
  await apiFetch(`/backend/admin/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export async function resendDelivery(deliveryId: string): Promise<void> {
  await apiFetch(`/backend/admin/webhooks/deliveries/${encodeURIComponent(deliveryId)}/resend`, {
    method: 'POST',
  });
}

export const crmWritebacksQueryOptions = queryOptions({
  queryKey: [...ADMINISTRATION_QUERY_KEY, 'crm-writebacks'],
  queryFn: (): Promise<CrmWritebacks> => apiJson('/backend/admin/crm-writebacks', crmWritebacksSchema),
});

export async function resendCrmWriteback(id: string): Promise<void> {
  await apiFetch(`/backend/admin/crm-writebacks/${encodeURIComponent(id)}/resend`, { method: 'POST' });
}
