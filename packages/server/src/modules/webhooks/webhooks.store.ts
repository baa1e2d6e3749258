import { and, desc, eq, sql } from 'drizzle-orm';
import type { WebhookDeliveryStatus, WebhookEventType } from '@patchwell/core/webhooks/webhooks.schema';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/raw';
import { users } from '../../db/schema';
import { webhookDeliveries, webhookOfflineScan, webhooks } from '../../db/webhooks.schema';
import type { Exec, Tx } from '../commands/commands.store';

/** The only SQL that writes `webhooks`, `webhook_deliveries` and `webhook_offline_scan`. */

export type WebhookRow = typeof webhooks.$inferSelect;
export type WebhookWithCreator = WebhookRow & { createdByEmail: string | null };
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type NewWebhook = typeof webhooks.$inferInsert;
type NewDelivery = typeof webhookDeliveries.$inferInsert;

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

export async function insertWebhook(exec: Exec, row: NewWebhook): Promise<WebhookRow> {
  const [created] = await exec.insert(webhooks).values(row).returning();
  return created!;
}

/** Serialises creations in one zone, so the count and the insert that follows it agree. */
export async function lockZoneWebhooks(tx: Tx, zoneId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('webhooks'), ${zoneId})`);
}

export async function countWebhooks(exec: Exec, zoneId: number): Promise<number> {
  const [row] = await exec
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(webhooks)
    .where(eq(webhooks.organizationId, zoneId));
  return row?.n ?? 0;
}

const withCreator = { webhook: webhooks, createdByEmail: users.email };

export async function findWebhooks(
  db: Db,
  zoneId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: WebhookWithCreator[]; size: number }> {
  const [rows, size] = await Promise.all([
    db
      .select(withCreator)
      .from(webhooks)
      .leftJoin(users, eq(users.id, webhooks.createdBy))
      .where(eq(webhooks.organizationId, zoneId))
      .orderBy(webhooks.id)
      .limit(page.limit)
      .offset(page.offset),
    countWebhooks(db, zoneId),
  ]);
  return { rows: rows.map((r) => ({ ...r.webhook, createdByEmail: r.createdByEmail })), size };
}

/** One webhook of the zone (undefined for another zone's). */
export async function findWebhook(exec: Exec, zoneId: number, id: number): Promise<WebhookWithCreator | undefined> {
  const [row] = await exec
    .select(withCreator)
    .from(webhooks)
    .leftJoin(users, eq(users.id, webhooks.createdBy))
    .where(and(eq(webhooks.organizationId, zoneId), eq(webhooks.id, id)));
  return row && { ...row.webhook, createdByEmail: row.createdByEmail };
}

/** A webhook by id alone, for the worker (which holds a delivery, not a zone). */
export async function findWebhookById(db: Db, id: number): Promise<WebhookRow | undefined> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  return row;
}

export async function updateWebhookRow(
  exec: Exec,
  zoneId: number,
  id: number,
  fields: Partial<Pick<WebhookRow, 'url' | 'eventTypes' | 'enabled' | 'secretSealed' | 'updatedAt'>>,
): Promise<WebhookRow | undefined> {
  const [row] = await exec
    .update(webhooks)
    .set(fields)
    .where(and(eq(webhooks.organizationId, zoneId), eq(webhooks.id, id)))
    .returning();
  return row;
}

/** Deletes the webhook and, with it, its deliveries. */
export async function deleteWebhookRow(exec: Exec, zoneId: number, id: number): Promise<boolean> {
  const rows = await exec
    .delete(webhooks)
    .where(and(eq(webhooks.organizationId, zoneId), eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}

/** Whether the webhook `w` is enabled and subscribed to `type`: the one rule every producer reads. */
const subscribes = (type: WebhookEventType) => sql`w.enabled and ${type} = any(w.event_types)`;

/** Whether an enabled webhook of the zone subscribes to `type`. */
export async function hasSubscriber(exec: Exec, zoneId: number, type: WebhookEventType): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    exec as Db,
    sql`select 1 as one from ${webhooks} w
         where w.organization_id = ${zoneId}::int and ${subscribes(type)} limit 1`,
  );
  return rows.length > 0;
}

/**
 * The outbox insert: one delivery per enabled webhook of the zone subscribed to `type`, in
 * one statement (nothing when there is none: an index probe on the zone's few webhooks).
 * Returns how many were enqueued.
 */
export async function insertEventDeliveries(
  exec: Exec,
  input: { zoneId: number; type: WebhookEventType; payloads: Record<string, unknown>[]; at: Date; retryUntil: Date },
): Promise<number> {
  // The payloads travel as one JSON array, and keep their order (a webhook receives them so).
  const rows = await queryRows<{ id: number }>(
    exec as Db,
    sql`insert into ${webhookDeliveries}
          (webhook_id, organization_id, event_type, payload, status, attempts, next_attempt_at, retry_until, created_at)
        select w.id, w.organization_id, ${input.type}, p.payload, 'pending', 0,
               ${ts(input.at)}, ${ts(input.retryUntil)}, ${ts(input.at)}
          from ${webhooks} w
          cross join jsonb_array_elements(${JSON.stringify(input.payloads)}::jsonb) with ordinality as p(payload, n)
         where w.organization_id = ${input.zoneId}::int and ${subscribes(input.type)}
         order by p.n, w.id
        returning id`,
  );
  return rows.length;
}

export async function insertDelivery(exec: Exec, row: NewDelivery): Promise<DeliveryRow> {
  const [created] = await exec.insert(webhookDeliveries).values(row).returning();
  return created!;
}

export async function findDeliveries(
  db: Db,
  webhookId: number,
  options: { offset: number; limit: number; status?: WebhookDeliveryStatus },
): Promise<{ rows: DeliveryRow[]; size: number }> {
  const where = and(
    eq(webhookDeliveries.webhookId, webhookId),
    options.status ? eq(webhookDeliveries.status, options.status) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(webhookDeliveries)
      .where(where),
  ]);
  return { rows, size: count?.n ?? 0 };
}

export async function findDelivery(db: Db, webhookId: number, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.id, id)));
  return row;
}

/** Puts a delivery back in the queue, due at once, with a new day of retries. */
export async function requeueDelivery(
  exec: Exec,
  webhookId: number,
  id: number,
  at: Date,
  retryUntil: Date,
): Promise<DeliveryRow | undefined> {
  const [row] = await exec
    .update(webhookDeliveries)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: at, retryUntil, deliveredAt: null })
    .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.id, id)))
    .returning();
  return row;
}

/**
 * Claims up to `limit` due deliveries: each gets `attempts + 1` and its next attempt moved
 * to `leaseUntil` (past the attempt's timeout), so no other worker takes it while this one
 * sends; rows another node is claiming are skipped. A node that dies mid-send leaves the row
 * due again at `leaseUntil`.
 */
export async function claimDueDeliveries(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<DeliveryRow[]> {
  const claimed = await queryRows<{ id: number }>(
    db,
    sql`update ${webhookDeliveries} d
           set attempts = d.attempts + 1, next_attempt_at = ${ts(leaseUntil)}, last_attempt_at = ${ts(now)}
         where d.id in (select id from ${webhookDeliveries}
                         where status = 'pending' and next_attempt_at <= ${ts(now)}
                         order by next_attempt_at, id
                         limit ${limit}
                         for update skip locked)
        returning d.id`,
  );
  if (!claimed.length) return [];
  const ids = claimed.map((r) => Number(r.id));
  return db
    .select()
    .from(webhookDeliveries)
    .where(sql`${webhookDeliveries.id} = any(${sql.raw(`array[${ids.join(',')}]::int[]`)})`)
    .orderBy(webhookDeliveries.id);
}

/**
 * Records an attempt's outcome, only while the claim is still this attempt's (a redelivery
 * meanwhile resets `attempts`, and wins).
 */
export async function recordAttempt(
  db: Db,
  claim: { id: number; attempts: number },
  fields: Pick<
    DeliveryRow,
    'status' | 'nextAttemptAt' | 'lastStatusCode' | 'lastError' | 'responseExcerpt' | 'durationMs' | 'deliveredAt'
  >,
): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set(fields)
    .where(
      and(
        eq(webhookDeliveries.id, claim.id),
        eq(webhookDeliveries.attempts, claim.attempts),
        eq(webhookDeliveries.status, 'pending'),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}

/** Finished deliveries one statement of the log's sweep deletes at most. */
const DELIVERY_SWEEP_BATCH = 5000;

/**
 * Deletes finished deliveries created before `before` (the log keeps 30 days), oldest first,
 * `batch` per statement until none is left: a log that grew for months goes in short
 * statements (on PGlite every other statement waits for the one running), and no id is read
 * back into JavaScript. Ids grow with time, so each batch is found at the start of the key.
 * Returns how many went.
 */
export async function deleteOldDeliveries(db: Db, before: Date, batch = DELIVERY_SWEEP_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number | string }>(
      db,
      sql`with gone as (
            delete from ${webhookDeliveries} where id in (
              select id from ${webhookDeliveries}
               where status <> 'pending' and created_at < ${ts(before)}
               order by id limit ${batch})
            returning 1)
          select count(*) as n from gone`,
    );
    const n = Number(row?.n ?? 0);
    total += n;
    if (n < batch) return total;
  }
}

export type WentOffline = {
  deviceId: number;
  deviceUuid: string;
  organizationId: number;
  hostname: string;
  name: string | null;
  lastSeenAt: Date;
  offlineSince: Date;
};

/** How many went-offline devices one pass of the offline watch reads (its ties at the cut on top). */
export const OFFLINE_SCAN_CHUNK = 5000;

/**
 * The offline watch, inside the caller's transaction: locks the scan row (another node
 * scanning now makes this one skip: undefined), and returns the live devices whose presence
 * ran out after `scanned_until`, up to `now`, moving the row on to where it read. The first
 * scan only starts the watch (no backlog of devices long offline).
 *
 * Only devices of zones with an enabled webhook for `device.offline` are read: a fleet that
 * drops off the network at once (a restart, a network cut) costs no read where nobody listens.
 * And at most about `chunk` of them, in the order they went offline, with every device that
 * went at the same instant as the last: `done` is false when more are left. The caller's
 * transaction holds PGlite's one connection: 100,000 devices in one transaction held it 6 s.
 */
export async function scanWentOffline(
  tx: Tx,
  now: Date,
  chunk = OFFLINE_SCAN_CHUNK,
): Promise<{ devices: WentOffline[]; done: boolean } | undefined> {
  await tx.execute(
    sql`insert into ${webhookOfflineScan} (id, scanned_until) values (1, ${ts(now)}) on conflict do nothing`,
  );
  const [scan] = await queryRows<{ scanned_until: string }>(
    tx as unknown as Db,
    sql`select scanned_until::text from ${webhookOfflineScan} where id = 1 for update skip locked`,
  );
  if (!scan) return undefined;
  const zones = await queryRows<{ organization_id: number }>(
    tx as unknown as Db,
    sql`select distinct w.organization_id from ${webhooks} w where ${subscribes('device.offline')}`,
  );
  const from = sql`${scan.scanned_until}::timestamptz`;
  const window = sql`p.online_until > ${from} and p.online_until <= ${ts(now)}
    and p.organization_id = any(${sql.param(zones.map((z) => Number(z.organization_id)))}::int[])`;
  // Where this pass stops: the chunk's last instant, or `now` when the window holds no more.
  const [cut] = zones.length
    ? await queryRows<{ at: string }>(
        tx as unknown as Db,
        sql`select p.online_until::text as at from device_presence p where ${window}
             order by p.online_until offset ${chunk - 1} limit 1`,
      )
    : [];
  const until = cut ? sql`${cut.at}::timestamptz` : ts(now);
  const rows = zones.length
    ? await queryRows<OfflineRow>(
        tx as unknown as Db,
        sql`select p.device_id, d.uuid, d.organization_id, d.hostname, d.custom_name, p.last_seen_at, p.online_until
              from device_presence p
              join devices d on d.id = p.device_id and d.removed_at is null
             where ${window} and p.online_until <= ${until}
             order by p.online_until, p.device_id`,
      )
    : [];
  await tx.execute(
    sql`update ${webhookOfflineScan} set scanned_until = greatest(scanned_until, ${until}) where id = 1`,
  );
  return { devices: rows.map(wentOffline), done: !cut };
}

type OfflineRow = {
  device_id: number;
  uuid: string;
  organization_id: number;
  hostname: string;
  custom_name: string | null;
  last_seen_at: string | Date;
  online_until: string | Date;
};

function wentOffline(r: OfflineRow): WentOffline {
  return {
    deviceId: Number(r.device_id),
    deviceUuid: r.uuid,
    organizationId: Number(r.organization_id),
    hostname: r.hostname,
    name: r.custom_name,
    lastSeenAt: new Date(r.last_seen_at),
    offlineSince: new Date(r.online_until),
  };
}
