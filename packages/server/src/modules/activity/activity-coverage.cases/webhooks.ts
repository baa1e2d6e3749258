import { call } from '../../../test/authz-helpers';
import { t, z, ids, admin, q, inZone, type Case } from './context';

/** Webhooks: create, edit, rotate, ping, redeliver, delete. */
export const webhookCases: Record<string, Case> = {
  'POST /api/webhooks': {
    run: async () => {
      const res = await admin().post(q('/api/webhooks'), {
        url: 'http://127.0.0.1:9/hooks',
        event_types: ['run.finished'],
      });
      ids.webhook = res.body?.id;
      return res;
    },
    action: 'webhook.create',
    zone: inZone,
  },
  'PATCH /api/webhooks/{webhookId}': {
    run: () => call(t, { cookie: z.cookie }, 'PATCH', q(`/api/webhooks/${ids.webhook}`), { enabled: false }),
    action: 'webhook.update',
    zone: inZone,
  },
  'POST /api/webhooks/{webhookId}/rotate-secret': {
    run: () => admin().post(q(`/api/webhooks/${ids.webhook}/rotate-secret`)),
    action: 'webhook.rotate_secret',
    zone: inZone,
  },
  'POST /api/webhooks/{webhookId}/ping': {
    run: async () => {
      const res = await admin().post(q(`/api/webhooks/${ids.webhook}/ping`));
      ids.webhookDelivery = res.body?.id;
      return res;
    },
    action: 'webhook.ping',
    zone: inZone,
  },
  'POST /api/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver': {
    run: () => admin().post(q(`/api/webhooks/${ids.webhook}/deliveries/${ids.webhookDelivery}/redeliver`)),
    action: 'webhook.redeliver',
    zone: inZone,
  },
  'DELETE /api/webhooks/{webhookId}': {
    run: () => admin().del(q(`/api/webhooks/${ids.webhook}`)),
    action: 'webhook.delete',
    zone: inZone,
  },
};
