import type {
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryStatus,
} from '@patchwell/core/webhooks/webhooks.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { notFound } from '../../domain/errors';
import { logActivity } from '../activity/activity.service';
import { requireZone } from '../zones/zone-access.service';
import { requireWebhook, WEBHOOK_RETRY_WINDOW_MS } from './webhooks.service';
import { findDeliveries, findDelivery, insertDelivery, requeueDelivery, type DeliveryRow } from './webhooks.store';

/** A webhook's delivery log: list, redeliver, and the test ping. */

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    retry_until: row.retryUntil.toISOString(),
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    response_excerpt: row.responseExcerpt,
    duration_ms: row.durationMs,
    payload: row.payload,
    created_at: row.createdAt.toISOString(),
    last_attempt_at: iso(row.lastAttemptAt),
    delivered_at: iso(row.deliveredAt),
  };
}

/** `GET /api/webhooks/{id}/deliveries` (Organization.manage): newest first, by status. */
export async function listDeliveries(
  ctx: AppContext,
  authz: Authz,
  webhookId: number,
  query: { o: number | undefined; page: number; limit: number; status?: WebhookDeliveryStatus },
): Promise<WebhookDeliveryList> {
  const zone = await requireZone(ctx, authz, query.o, 'Organization', 'manage');
  await requireWebhook(ctx, zone.id, webhookId);
  const { rows, size } = await findDeliveries(ctx.db, webhookId, {
    offset: query.page * query.limit,
    limit: query.limit,
    status: query.status,
  });
  return { data: rows.map(toDelivery), size };
}

/**
 * `POST /api/webhooks/{id}/ping` (Organization.manage): enqueues a `ping` delivery, due at
 * once, whether or not the webhook is enabled; the worker sends it like any other.
 */
export async function pingWebhook(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  webhookId: number,
): Promise<WebhookDelivery> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  await requireWebhook(ctx, zone.id, webhookId);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    const created = await insertDelivery(tx, {
      webhookId,
      organizationId: zone.id,
      eventType: 'ping',
      payload: { webhook_id: webhookId, message: 'Test delivery from Patchwell.' },
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      retryUntil: new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS),
      createdAt: now,
    });
    await logActivity(
      ctx,
      authz,
      zone.id,
      'webhook.ping',
      { type: 'webhook', id: webhookId },
      { delivery: created.id },
      tx,
    );
    return created;
  });
  return toDelivery(row);
}

/**
 * `POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver` (Organization.manage): the
 * delivery (same id, same body, so receivers can still tell it apart) is due again at once,
 * with a new day of retries.
 */
export async function redeliver(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  webhookId: number,
  deliveryId: number,
): Promise<WebhookDelivery> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  await requireWebhook(ctx, zone.id, webhookId);
  if (!(await findDelivery(ctx.db, webhookId, deliveryId))) throw notFound();
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    const updated = await requeueDelivery(
      tx,
      webhookId,
      deliveryId,
      now,
      new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS),
    );
    if (!updated) throw notFound();
    await logActivity(
      ctx,
      authz,
      zone.id,
      'webhook.redeliver',
      { type: 'webhook', id: webhookId },
      { delivery: deliveryId, event_type: updated.eventType },
      tx,
    );
    return updated;
  });
  return toDelivery(row);
}
