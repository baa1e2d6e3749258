import { and, eq, inArray, sql } from 'drizzle-orm';
import type { EnrollBody, ParsedInventory } from '@patchwell/core/agent/agent-protocol.schema';
import pg from 'pg';
import type { Db } from '../db/client';
import {
  deviceCommands,
  deviceDetails,
  devicePatches,
  devicePatchNames,
  devicePresence,
  devicePresenceDays,
  deviceSoftware,
  devices,
  serverGroups,
} from '../db/devices.schema';
import { refreshCompliance } from '../modules/devices/compliance.store';
import type { GroupRow } from '../modules/devices/groups.store';
import { ONLINE_GRACE_S } from '../modules/devices/presence.store';

/** What the token cache keeps of a device: enough to answer a check-in without a query. */
export type DeviceIdentity = {
  id: number;
  organizationId: number;
  tokenHash: string;
  removed: boolean;
  checkinIntervalS: number;
  inventoryHash: string | null;
};

const identityColumns = {
  id: devices.id,
  organizationId: devices.organizationId,
  tokenHash: devices.tokenHash,
  removedAt: devices.removedAt,
  checkinIntervalS: devices.checkinIntervalS,
  inventoryHash: devices.inventoryHash,
};

function toIdentity(row: {
  id: number;
  organizationId: number;
  tokenHash: string;
  removedAt: Date | null;
  checkinIntervalS: number;
  inventoryHash: string | null;
}): DeviceIdentity {
  // Written out, not `{ ...rest }` after a rest destructuring: V8 made each such object a
  // dictionary with a hidden class of its own (30 MB of the token cache at 100,000 devices).
  return {
    id: row.id,
    organizationId: row.organizationId,
    tokenHash: row.tokenHash,
    removed: row.removedAt !== null,
    checkinIntervalS: row.checkinIntervalS,
    inventoryHash: row.inventoryHash,
  };
}

/** The devices of many token hashes at once (unknown hashes are left out). */
export async function findDevicesByTokenHashes(db: Db, tokenHashes: string[]): Promise<DeviceIdentity[]> {
  if (!tokenHashes.length) return [];
  const rows = await db.select(identityColumns).from(devices).where(inArray(devices.tokenHash, tokenHashes));
  return rows.map(toIdentity);
}

/**
 * Enrols a device: a new row, or, for a `machine_id` already known in the zone, the same
 * row with the new token (and brought back if it had been removed). Returns the device and
 * the token hash it had before (to drop from the cache).
 */
export async function upsertEnrolledDevice(
  db: Db,
  input: { zoneId: number; body: EnrollBody; tokenHash: string; group: GroupRow; now: Date },
): Promise<{ device: typeof devices.$inferSelect; previousTokenHash: string | null }> {
  const { body } = input;
  const [previous] = await db
    .select({ tokenHash: devices.tokenHash })
    .from(devices)
    .where(and(eq(devices.organizationId, input.zoneId), eq(devices.machineId, body.machine_id)))
    .limit(1);
  const fields = {
    hostname: body.hostname,
    osFamily: body.os_family,
    osName: body.os_name,
    osVersion: body.os_version,
    arch: body.arch,
    agentVersion: body.agent_version,
    tokenHash: input.tokenHash,
  };
  const [device] = await db
    .insert(devices)
    .values({
      ...fields,
      organizationId: input.zoneId,
      groupId: input.group.id,
      checkinIntervalS: input.group.checkinIntervalS,
      machineId: body.machine_id,
      createdAt: input.now,
    })
    .onConflictDoUpdate({
      target: [devices.organizationId, devices.machineId],
      set: { ...fields, removedAt: null },
    })
    .returning();
  return { device: device!, previousTokenHash: previous?.tokenHash ?? null };
}

// Rows per INSERT: well under PostgreSQL's 65,535 parameters.
const INSERT_CHUNK = 2000;

export type InventoryInput = ParsedInventory;

function dateOrNull(s: string | null | undefined): Date | null {
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * Replaces the device's inventory in one transaction, unless its stored hash already equals
 * `hash` (then nothing is written). Returns whether it wrote.
 */
export async function replaceInventory(db: Db, deviceId: number, input: InventoryInput, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Locks the row: two inventories of one device are applied one after the other.
    const [current] = await tx
      .select({ hash: devices.inventoryHash })
      .from(devices)
      .where(eq(devices.id, deviceId))
      .for('update');
    if (!current || current.hash === input.hash) return false;
    await tx.delete(deviceSoftware).where(eq(deviceSoftware.deviceId, deviceId));
    await tx.delete(devicePatches).where(eq(devicePatches.deviceId, deviceId));
    for (let i = 0; i < input.software.length; i += INSERT_CHUNK) {
      await tx.insert(deviceSoftware).values(
        input.software.slice(i, i + INSERT_CHUNK).map((s) => ({
          deviceId,
          name: s.name,
          version: s.version,
          source: s.source ?? null,
          arch: s.arch ?? null,
        })),
      );
    }
    for (let i = 0; i < input.patches.length; i += INSERT_CHUNK) {
      await tx.insert(devicePatches).values(
        input.patches.slice(i, i + INSERT_CHUNK).map((p) => ({
          deviceId,
          name: p.name,
          currentVersion: p.current_version ?? null,
          version: p.version,
          severity: p.severity,
          cves: p.cves,
          kb: p.kb ?? null,
          source: p.source ?? null,
          rebootRequired: p.reboot_required,
          publishedAt: dateOrNull(p.published_at),
        })),
      );
    }
    // Each name once, in the inventory's order: what a patch_all run installs.
    const names = [...new Set(input.patches.map((p) => p.name))];
    await tx
      .insert(devicePatchNames)
      .values({ deviceId, names })
      .onConflictDoUpdate({ target: devicePatchNames.deviceId, set: { names } });
    const { system } = input;
    await tx
      .update(devices)
      .set({
        inventoryHash: input.hash,
        lastInventoryAt: now,
        timezone: system.timezone ?? null,
        ...(system.logged_in_user ? { loggedInUser: system.logged_in_user } : {}),
        hostname: system.hostname,
        osFamily: system.os_family,
        osName: system.os_name,
        osVersion: system.os_version,
        arch: system.arch,
        agentVersion: system.agent_version,
        pendingPatches: input.patches.length,
      })
      .where(eq(devices.id, deviceId));
    await refreshCompliance(tx, [deviceId], now);
    await tx
      .insert(deviceDetails)
      .values({ deviceId, detail: system, updatedAt: now })
      .onConflictDoUpdate({ target: deviceDetails.deviceId, set: { detail: system, updatedAt: now } });
    return true;
  });
}

/** One device's coalesced check-in: when, and what its status said. */
export type SeenEntry = {
  id: number;
  organization_id: number;
  at: string;
  /** The check-in interval that check-in's answer gave the agent. */
  interval_s: number;
  needs_reboot: boolean | null;
  ip_addrs: string[] | null;
  ip_addrs_private: string[] | null;
  uptime_s: number | null;
  logged_in_user: string | null;
};

/**
 * Writes many check-ins in one statement: every device's presence row (last seen, online
 * until, uptime) with the day's billing presence, and, only for the devices whose reboot flag,
 * addresses or user changed, their device rows. A check-in that changes nothing else leaves the device row as it was,
 * so the list's indexes over it can be read without the table. A device's first check-in of a
 * day (UTC) also records that day in `device_presence_days`, which billing meters; it is read
 * against the presence rows before they move, so later check-ins that day write nothing there.
 */
export async function writeLastSeen(db: Db, entries: SeenEntry[]): Promise<void> {
  if (!entries.length) return;
  const values = sql`jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as v(
      id int, organization_id int, at timestamptz, interval_s int, needs_reboot boolean, ip_addrs text[],
      ip_addrs_private text[], uptime_s bigint, logged_in_user text)`;
  // One statement for all three, so the check-ins' JSON is read once and the check-in path
  // gains no round trip. Its parts share one snapshot:
  // the days' insert reads the presence rows as they were before the upsert beside it.
  await db.execute(sql`
    with v as materialized (select * from ${values}),
    days as (
      insert into ${devicePresenceDays} (device_id, organization_id, day)
        select distinct v.id, v.organization_id, (v.at at time zone 'UTC')::date
          from v
          left join ${devicePresence} p on p.device_id = v.id
         where p.last_seen_at is null
            or (p.last_seen_at at time zone 'UTC')::date <> (v.at at time zone 'UTC')::date
      on conflict do nothing
    ),
    changed as (
      update ${devices} as d set
        needs_reboot = coalesce(v.needs_reboot, d.needs_reboot),
        ip_addrs = coalesce(v.ip_addrs, d.ip_addrs),
        ip_addrs_private = coalesce(v.ip_addrs_private, d.ip_addrs_private),
        logged_in_user = coalesce(v.logged_in_user, d.logged_in_user)
      from v
      where d.id = v.id
        and (d.needs_reboot is distinct from coalesce(v.needs_reboot, d.needs_reboot)
          or d.ip_addrs is distinct from coalesce(v.ip_addrs, d.ip_addrs)
          or d.ip_addrs_private is distinct from coalesce(v.ip_addrs_private, d.ip_addrs_private)
          or d.logged_in_user is distinct from coalesce(v.logged_in_user, d.logged_in_user))
    )
    insert into ${devicePresence} as p (device_id, organization_id, last_seen_at, online_until, uptime_s)
      select v.id, v.organization_id, v.at, v.at + make_interval(secs => v.interval_s + ${ONLINE_GRACE_S}), v.uptime_s
        from v
    on conflict (device_id) do update set
      last_seen_at = greatest(p.last_seen_at, excluded.last_seen_at),
      online_until = case when excluded.last_seen_at >= p.last_seen_at then excluded.online_until else p.online_until end,
      uptime_s = coalesce(excluded.uptime_s, p.uptime_s)`);
}

/**
 * Gathers the planner's statistics and reclaims dead row versions of the tables check-ins
 * and the device list plan on (PGlite runs no autovacuum). One statement per table: PGlite
 * runs one statement at a time, and the check-ins' own statements run between them.
 */
export async function vacuumAgentTables(db: Db): Promise<void> {
  for (const table of [devices, devicePresence, deviceCommands, serverGroups]) {
    await db.execute(sql`vacuum (analyze) ${table}`);
  }
}

/** Sends one notification per payload on `channel`, in one statement (PostgreSQL only). */
export async function notifyMany(db: Db, channel: string, payloads: string[]): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, p) from unnest(string_to_array(${payloads.join(',')}, ',')) as p`);
}

/** A connection of its own for LISTEN (a pooled one would be handed to other queries). */
export function createListener(url: string): pg.Client {
  return new pg.Client({ connectionString: url });
}

/** Connects the listener and listens on `channel`. */
export async function startListening(client: pg.Client, channel: string): Promise<void> {
  await client.connect();
  await client.query(`LISTEN ${channel}`);
}
