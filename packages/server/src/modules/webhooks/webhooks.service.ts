import { ONE_DAY_MS } from '@patchwell/core/constants';
import {
  WEBHOOKS_PER_ZONE_MAX,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type Webhook,
  type WebhookEventType,
  type WebhookList,
  type WebhookWithSecret,
} from '@patchwell/core/webhooks/webhooks.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { AppError, notFound, validationError } from '../../domain/errors';
import { logActivity } from '../activity/activity.service';
import type { Exec } from '../commands/commands.store';
import { encryptSecret } from '../zones/access-key';
import { secretKey } from '../zones/secret-key';
import { requireZone } from '../zones/zone-access.service';
import { generateWebhookSecret } from './signature';
import { resolveTarget } from './target';
import {
  countWebhooks,
  deleteWebhookRow,
  findWebhook,
  findWebhooks,
  hasSubscriber,
  insertEventDeliveries,
  insertWebhook,
  lockZoneWebhooks,
  updateWebhookRow,
  type WebhookWithCreator,
} from './webhooks.store';

/**
 * Outgoing webhooks: a zone's subscriptions (managed with Organization.manage, the right of
 * the zone's settings) and the outbox the producers write to. Deliveries and their worker
 * are in deliveries.service.ts and webhooks.worker.ts.
 */

/** How long an event is retried before its delivery fails. */
export const WEBHOOK_RETRY_WINDOW_MS = ONE_DAY_MS;

/**
 * The outbox: enqueues `type` for every enabled webhook of the zone subscribed to it, in the
 * caller's transaction, so a change that rolls back sends nothing and a committed one is
 * never lost. One statement; nothing is written when no webhook wants the event.
 */
export function enqueueWebhookEvent(
  tx: Exec,
  zoneId: number,
  type: WebhookEventType,
  payload: Record<string, unknown>,
  at: Date,
): Promise<number> {
  return enqueueWebhookEvents(tx, zoneId, type, [payload], at);
}

/**
 * Whether the zone has an enabled webhook for `type`: a producer whose payload costs a read of
 * its own (a failed patch's device, zone and policy) asks first.
 */
export function wantsWebhookEvent(exec: Exec, zoneId: number, type: WebhookEventType): Promise<boolean> {
  return hasSubscriber(exec, zoneId, type);
}

/** {@link enqueueWebhookEvent} for many events of one type (an accepted batch's new critical CVEs), in one statement. */
export function enqueueWebhookEvents(
  tx: Exec,
  zoneId: number,
  type: WebhookEventType,
  payloads: Record<string, unknown>[],
  at: Date,
): Promise<number> {
  if (!payloads.length) return Promise.resolve(0);
  return insertEventDeliveries(tx, {
    zoneId,
    type,
    payloads,
    at,
    retryUntil: new Date(at.getTime() + WEBHOOK_RETRY_WINDOW_MS),
  });
}

export function toWebhook(row: WebhookWithCreator): Webhook {
  return {
    id: row.id,
    url: row.url,
    event_types: row.eventTypes,
    enabled: row.enabled,
    created_by: row.createdByEmail,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Refuses a URL of the wrong shape or one whose host resolves to an address webhooks may not reach. */
async function checkUrl(ctx: AppContext, url: string): Promise<void> {
  const checked = await resolveTarget(url, ctx.config.webhooksAllowLoopback);
  if ('problem' in checked) throw validationError({ url: [checked.problem] });
}

async function sealed(ctx: AppContext, secret: string): Promise<string> {
  return encryptSecret(secret, await secretKey(ctx.config));
}

/** A webhook of the zone, or 404 (another zone's too). */
export async function requireWebhook(ctx: AppContext, zoneId: number, id: number): Promise<WebhookWithCreator> {
  const row = await findWebhook(ctx.db, zoneId, id);
  if (!row) throw notFound();
  return row;
}

/** `GET /api/webhooks` (Organization.manage). */
export async function listWebhooks(
  ctx: AppContext,
  authz: Authz,
  query: { o: number | undefined; page: number; limit: number },
): Promise<WebhookList> {
  const zone = await requireZone(ctx, authz, query.o, 'Organization', 'manage');
  const { rows, size } = await findWebhooks(ctx.db, zone.id, { offset: query.page * query.limit, limit: query.limit });
  return { data: rows.map(toWebhook), size };
}

/** `GET /api/webhooks/{id}` (Organization.manage). */
export async function getWebhook(ctx: AppContext, authz: Authz, o: number | undefined, id: number): Promise<Webhook> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  return toWebhook(await requireWebhook(ctx, zone.id, id));
}

/** `POST /api/webhooks` (Organization.manage): answers the secret, this once. */
export async function createWebhook(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  body: CreateWebhookBody,
): Promise<WebhookWithSecret> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  await checkUrl(ctx, body.url);
  const secret = generateWebhookSecret();
  const secretSealed = await sealed(ctx, secret);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    await lockZoneWebhooks(tx, zone.id);
    if ((await countWebhooks(tx, zone.id)) >= WEBHOOKS_PER_ZONE_MAX) throw new AppError('webhooks.too_many');
    const created = await insertWebhook(tx, {
      organizationId: zone.id,
      url: body.url,
      eventTypes: body.event_types,
      secretSealed,
      enabled: body.enabled,
      createdBy: authz.userId,
      createdAt: now,
      updatedAt: now,
    });
    await logActivity(
      ctx,
      authz,
      zone.id,
      'webhook.create',
      { type: 'webhook', id: created.id },
      { url: body.url, event_types: body.event_types, enabled: body.enabled },
      tx,
    );
    return created;
  });
  return { ...toWebhook(await requireWebhook(ctx, zone.id, row.id)), secret };
}

/** `PATCH /api/webhooks/{id}` (Organization.manage). */
export async function updateWebhook(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
  body: UpdateWebhookBody,
): Promise<Webhook> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  const before = await requireWebhook(ctx, zone.id, id);
  if (body.url !== undefined && body.url !== before.url) await checkUrl(ctx, body.url);
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  if (body.url !== undefined && body.url !== before.url) changes.url = { from: before.url, to: body.url };
  if (body.event_types && body.event_types.join() !== before.eventTypes.join()) {
    changes.event_types = { from: before.eventTypes, to: body.event_types };
  }
  if (body.enabled !== undefined && body.enabled !== before.enabled) {
    changes.enabled = { from: before.enabled, to: body.enabled };
  }
  await ctx.db.transaction(async (tx) => {
    const row = await updateWebhookRow(tx, zone.id, id, {
      url: body.url,
      eventTypes: body.event_types,
      enabled: body.enabled,
      updatedAt: ctx.clock.now(),
    });
    if (!row) throw notFound();
    await logActivity(ctx, authz, zone.id, 'webhook.update', { type: 'webhook', id }, { changes }, tx);
  });
  return toWebhook(await requireWebhook(ctx, zone.id, id));
}

/** `DELETE /api/webhooks/{id}` (Organization.manage): its deliveries go with it. */
export async function deleteWebhook(ctx: AppContext, authz: Authz, o: number | undefined, id: number): Promise<void> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  await ctx.db.transaction(async (tx) => {
    const before = await findWebhook(tx, zone.id, id);
    if (!before || !(await deleteWebhookRow(tx, zone.id, id))) throw notFound();
    await logActivity(ctx, authz, zone.id, 'webhook.delete', { type: 'webhook', id }, { url: before.url }, tx);
  });
}

/** `POST /api/webhooks/{id}/rotate-secret` (Organization.manage): the old secret stops signing at once. */
export async function rotateWebhookSecret(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
): Promise<WebhookWithSecret> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  await requireWebhook(ctx, zone.id, id);
  const secret = generateWebhookSecret();
  const secretSealed = await sealed(ctx, secret);
  await ctx.db.transaction(async (tx) => {
    const row = await updateWebhookRow(tx, zone.id, id, { secretSealed, updatedAt: ctx.clock.now() });
    if (!row) throw notFound();
    await logActivity(ctx, authz, zone.id, 'webhook.rotate_secret', { type: 'webhook', id }, {}, tx);
  });
  return { ...toWebhook(await requireWebhook(ctx, zone.id, id)), secret };
}
