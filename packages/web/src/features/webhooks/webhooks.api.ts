import {
  ZWebhook,
  ZWebhookDelivery,
  ZWebhookDeliveryList,
  ZWebhookList,
  ZWebhookWithSecret,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type WebhookDeliveryStatus,
} from '@patchwell/core/webhooks/webhooks.schema';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

/** Outgoing webhooks of the zone (docs/api/webhooks.md); Organization.manage. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (zoneId: number) => ['webhooks', zoneId] as const,
  deliveries: (zoneId: number, webhookId: number, status: string, page: number) =>
    ['webhooks', zoneId, webhookId, 'deliveries', status, page] as const,
};

/** `GET /api/webhooks?o=`. */
export function useWebhooks(zoneId: number) {
  return useQuery({
    queryKey: webhookKeys.list(zoneId),
    queryFn: ({ signal }) =>
      api.request('/api/webhooks', { query: { o: zoneId, limit: 100 }, schema: ZWebhookList, signal }),
  });
}

/** `GET /api/webhooks/{id}/deliveries?o=`: newest first, 25 a page. */
export function useDeliveries(zoneId: number, webhookId: number, status: WebhookDeliveryStatus | '', page: number) {
  return useQuery({
    queryKey: webhookKeys.deliveries(zoneId, webhookId, status, page),
    queryFn: ({ signal }) =>
      api.request(`/api/webhooks/${webhookId}/deliveries`, {
        query: { o: zoneId, page, limit: 25, ...(status ? { status } : {}) },
        schema: ZWebhookDeliveryList,
        signal,
      }),
    // Pending deliveries move on their own: follow them while the log is open.
    refetchInterval: 5_000,
  });
}

/** `POST /api/webhooks?o=`: the answer holds the secret, this one time. */
export function createWebhook(zoneId: number, body: CreateWebhookBody) {
  return api.request('/api/webhooks', { method: 'POST', query: { o: zoneId }, body, schema: ZWebhookWithSecret });
}

export function updateWebhook(zoneId: number, id: number, body: UpdateWebhookBody) {
  return api.request(`/api/webhooks/${id}`, { method: 'PATCH', query: { o: zoneId }, body, schema: ZWebhook });
}

export function deleteWebhook(zoneId: number, id: number) {
  return api.request(`/api/webhooks/${id}`, { method: 'DELETE', query: { o: zoneId } });
}

export function rotateWebhookSecret(zoneId: number, id: number) {
  return api.request(`/api/webhooks/${id}/rotate-secret`, {
    method: 'POST',
    query: { o: zoneId },
    schema: ZWebhookWithSecret,
  });
}

export function pingWebhook(zoneId: number, id: number) {
  return api.request(`/api/webhooks/${id}/ping`, { method: 'POST', query: { o: zoneId }, schema: ZWebhookDelivery });
}

export function redeliverDelivery(zoneId: number, webhookId: number, deliveryId: number) {
  return api.request(`/api/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, {
    method: 'POST',
    query: { o: zoneId },
    schema: ZWebhookDelivery,
  });
}
