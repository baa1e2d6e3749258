import { WEBHOOK_HEADERS } from '@patchwell/core/webhooks/webhooks.schema';
import type { AppContext } from '../../context';
import { startPeriodic, type PeriodicTask } from '../../periodic';
import { decryptSecret } from '../zones/access-key';
import { secretKey } from '../zones/secret-key';
import { postOnce, type AttemptResult } from './send';
import { signatureHeader } from './signature';
import { resolveTarget } from './target';
import { enqueueWebhookEvents } from './webhooks.service';
import {
  claimDueDeliveries,
  deleteOldDeliveries,
  findWebhookById,
  recordAttempt,
  scanWentOffline,
  type DeliveryRow,
} from './webhooks.store';

/**
 * The deliveries' worker (every node runs one, started in serve.ts): claims due deliveries
 * with `FOR UPDATE SKIP LOCKED`, signs and POSTs each with a timeout, and records the
 * outcome: delivered on a 2xx; otherwise due again after an exponential backoff with
 * jitter, until its day of retries is over, then failed. Also the offline watch, which
 * turns presence running out into `device.offline` events.
 */

/** One attempt's timeout. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** A claim holds a delivery this long: past the timeout, so a live worker always records first. */
const CLAIM_LEASE_MS = 60_000;
/** First retry after about this long; each further one waits twice as long, up to {@link BACKOFF_MAX_MS}. */
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_MAX_MS = 60 * 60_000;
const CLAIM_BATCH = 20;
/** How often each node looks for due deliveries, and for devices that went offline. */
export const DELIVERY_POLL_MS = 2_000;
export const OFFLINE_SCAN_MS = 30_000;
/** Finished deliveries stay in the log this long. */
const LOG_KEEP_MS = 30 * 24 * 60 * 60_000;
/** How often a node drops deliveries past LOG_KEEP_MS: the log ages by days, an hourly pass is plenty. */
const LOG_SWEEP_MS = 60 * 60_000;

type Ctx = Pick<AppContext, 'db' | 'clock' | 'logger' | 'config'>;

/** Wait before the attempt after attempt `attempts` (1-based): doubling, capped, ±20 % jitter. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** The JSON body of a delivery: the envelope receivers parse. */
export function deliveryBody(d: DeliveryRow): string {
  return JSON.stringify({
    id: d.id,
    type: d.eventType,
    created_at: d.createdAt.toISOString(),
    zone_id: d.organizationId,
    data: d.payload,
  });
}

async function attempt(ctx: Ctx, d: DeliveryRow): Promise<AttemptResult> {
  const webhook = await findWebhookById(ctx.db, d.webhookId);
  if (!webhook) return { statusCode: null, excerpt: null, error: 'The webhook was deleted.', durationMs: 0 };
  const secret = decryptSecret(webhook.secretSealed, await secretKey(ctx.config));
  if (!secret) {
    return {
      statusCode: null,
      excerpt: null,
      error: 'The signing secret cannot be read with this server’s key; rotate the secret.',
      durationMs: 0,
    };
  }
  // Checked again now: the name may resolve elsewhere than when the webhook was saved.
  const checked = await resolveTarget(webhook.url, ctx.config.webhooksAllowLoopback);
  if ('problem' in checked) return { statusCode: null, excerpt: null, error: checked.problem, durationMs: 0 };
  const body = deliveryBody(d);
  return postOnce(
    checked.target,
    {
      'user-agent': 'Patchwell-Webhooks/1',
      [WEBHOOK_HEADERS.signature]: signatureHeader(secret, ctx.clock.now(), body),
      [WEBHOOK_HEADERS.event]: d.eventType,
      [WEBHOOK_HEADERS.delivery]: String(d.id),
    },
    body,
    WEBHOOK_TIMEOUT_MS,
  );
}

export type DeliveryOutcome = { id: number; status: 'delivered' | 'pending' | 'failed' | 'lost' };

/** Sends what is due now (in batches until none is left, or `signal` aborts); returns each outcome. */
export async function runWebhookDeliveries(
  ctx: Ctx,
  options: { signal?: AbortSignal } = {},
): Promise<DeliveryOutcome[]> {
  const outcomes: DeliveryOutcome[] = [];
  while (!options.signal?.aborted) {
    const now = ctx.clock.now();
    const claimed = await claimDueDeliveries(ctx.db, now, new Date(now.getTime() + CLAIM_LEASE_MS), CLAIM_BATCH);
    if (!claimed.length) break;
    await Promise.all(
      claimed.map(async (d) => {
        const result = await attempt(ctx, d).catch((err: unknown): AttemptResult => ({
          statusCode: null,
          excerpt: null,
          error: `Could not deliver: ${(err as Error).message}`,
          durationMs: 0,
        }));
        const at = ctx.clock.now();
        const ok = result.error === null;
        const next = new Date(at.getTime() + backoffMs(d.attempts));
        const status = ok ? 'delivered' : next > d.retryUntil ? 'failed' : 'pending';
        const written = await recordAttempt(
          ctx.db,
          { id: d.id, attempts: d.attempts },
          {
            status,
            nextAttemptAt: status === 'pending' ? next : null,
            lastStatusCode: result.statusCode,
            lastError: result.error,
            responseExcerpt: result.excerpt,
            durationMs: result.durationMs,
            deliveredAt: ok ? at : null,
          },
        );
        outcomes.push({ id: d.id, status: written ? status : 'lost' });
      }),
    );
  }
  return outcomes;
}

/**
 * The offline watch: a `device.offline` event for each device whose presence ran out since
 * the last pass, enqueued in the transaction that moves the watch on (one node scans at a
 * time; the others skip). One statement per zone, and a transaction per chunk of devices
 * (webhooks.store.ts `scanWentOffline`): a transaction holds PGlite's one connection, and a
 * statement per device in one transaction kept every read waiting 114 s when 100,000
 * devices went quiet at once. Returns how many deliveries it enqueued.
 */
export async function scanOfflineDevices(ctx: Pick<AppContext, 'db' | 'clock'>, chunk?: number): Promise<number> {
  const now = ctx.clock.now();
  let enqueued = 0;
  for (;;) {
    const pass = await ctx.db.transaction(async (tx) => {
      const scanned = await scanWentOffline(tx, now, chunk);
      const byZone = new Map<number, Record<string, unknown>[]>();
      for (const d of scanned?.devices ?? []) {
        const payloads = byZone.get(d.organizationId) ?? [];
        payloads.push({
          device: { id: d.deviceId, uuid: d.deviceUuid, hostname: d.hostname, name: d.name ?? d.hostname },
          last_seen_at: d.lastSeenAt.toISOString(),
          offline_since: d.offlineSince.toISOString(),
        });
        byZone.set(d.organizationId, payloads);
      }
      let made = 0;
      for (const [zoneId, payloads] of byZone) {
        made += await enqueueWebhookEvents(tx, zoneId, 'device.offline', payloads, now);
      }
      return { made, done: scanned?.done ?? true };
    });
    enqueued += pass.made;
    if (pass.done) return enqueued;
  }
}

/** The webhooks' background work on this node; stopping waits for attempts in flight. */
export function startWebhookJobs(ctx: AppContext): PeriodicTask {
  const stopping = new AbortController();
  const deliveries = startPeriodic(
    ctx.logger,
    DELIVERY_POLL_MS,
    async () => {
      const sent = await runWebhookDeliveries(ctx, { signal: stopping.signal });
      if (sent.length) ctx.logger.info({ deliveries: sent }, 'webhook deliveries attempted');
    },
    'webhook delivery worker failed',
  );
  const offline = startPeriodic(
    ctx.logger,
    OFFLINE_SCAN_MS,
    async () => {
      await scanOfflineDevices(ctx);
    },
    'webhook offline watch failed',
  );
  const sweep = startPeriodic(
    ctx.logger,
    LOG_SWEEP_MS,
    async () => {
      await deleteOldDeliveries(ctx.db, new Date(ctx.clock.now().getTime() - LOG_KEEP_MS));
    },
    'webhook delivery log sweep failed',
  );
  return {
    async stop() {
      stopping.abort();
      await Promise.all([deliveries.stop(), offline.stop(), sweep.stop()]);
    },
  };
}
