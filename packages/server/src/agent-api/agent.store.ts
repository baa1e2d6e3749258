import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { CommandResultBody, EnrollBody, ParsedInventory } from '@patchwell/core/agent/agent-protocol.schema';
import type { Db } from '../db/client';
import { deviceCommands, deviceDetails, devicePatches, devicePresence, deviceSoftware, devices } from '../db/schema';
import { onPolicyCommandResult } from '../engine/results';
import { refreshCompliance } from '../modules/devices/compliance.store';
import type { GroupRow } from '../modules/devices/groups.store';
import { ONLINE_GRACE_S } from '../modules/devices/presence';

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
  const { removedAt, ...rest } = row;
  return { ...rest, removed: removedAt !== null };
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

/** Which of the devices have pending commands (one indexed read for many check-ins). */
export async function findDevicesWithPendingCommands(db: Db, deviceIds: number[]): Promise<number[]> {
  if (!deviceIds.length) return [];
  const rows = await db
    .selectDistinct({ deviceId: deviceCommands.deviceId })
    .from(deviceCommands)
    .where(and(inArray(deviceCommands.deviceId, deviceIds), eq(deviceCommands.status, 'pending')));
  return rows.map((r) => r.deviceId);
}

/** Hands out the device's pending commands: they become `in_progress`, oldest first. */
export async function takePendingCommands(db: Db, deviceId: number, now: Date) {
  const pending = db
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(and(eq(deviceCommands.deviceId, deviceId), eq(deviceCommands.status, 'pending')))
    .orderBy(asc(deviceCommands.id))
    .limit(100)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(deviceCommands)
    .set({ status: 'in_progress', startedAt: now })
    .where(inArray(deviceCommands.id, pending))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
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
    await refreshCompliance(tx, [deviceId]);
    await tx
      .insert(deviceDetails)
      .values({ deviceId, detail: system, updatedAt: now })
      .onConflictDoUpdate({ target: deviceDetails.deviceId, set: { detail: system, updatedAt: now } });
    return true;
  });
}

/** `recorded` with `queued`: commands the result led to (a worklet's evaluation after a scan). */
export type ResultOutcome = { status: 'recorded'; queued: number } | { status: 'unchanged' | 'not_found' };

/**
 * Records a command's result, once: a command of another device is `not_found`; one that
 * already has a final status (a repeated post, or timed out by the sweep) is left alone.
 */
export async function recordCommandResult(
  db: Db,
  deviceId: number,
  commandId: number,
  result: CommandResultBody,
  now: Date,
  /** Told when the policy engine could not apply the result (its next tick repairs it). */
  onEngineError?: (err: unknown) => void,
): Promise<ResultOutcome> {
  const [command] = await db
    .select({ id: deviceCommands.id, status: deviceCommands.status, startedAt: deviceCommands.startedAt })
    .from(deviceCommands)
    .where(and(eq(deviceCommands.id, commandId), eq(deviceCommands.deviceId, deviceId)))
    .limit(1);
  if (!command) return { status: 'not_found' };
  if (command.status !== 'pending' && command.status !== 'in_progress') return { status: 'unchanged' };
  const updated = await db
    .update(deviceCommands)
    .set({
      status: result.status,
      exitCode: result.exit_code ?? null,
      stdoutTail: result.stdout_tail ?? null,
      stderrTail: result.stderr_tail ?? null,
      data: result.data ?? null,
      startedAt: dateOrNull(result.started_at) ?? command.startedAt ?? now,
      finishedAt: dateOrNull(result.finished_at) ?? now,
    })
    .where(and(eq(deviceCommands.id, commandId), inArray(deviceCommands.status, ['pending', 'in_progress'])))
    .returning({ id: deviceCommands.id });
  if (!updated.length) return { status: 'unchanged' };
  return {
    status: 'recorded',
    queued: await onPolicyCommandResult(db, deviceId, commandId, result, now, onEngineError),
  };
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
 * Writes many check-ins in two statements: every device's presence row (last seen, online
 * until, uptime), and, only for the devices whose reboot flag, addresses or user changed,
 * their device rows. A check-in that changes nothing else leaves the device row as it was,
 * so the list's indexes over it can be read without the table.
 */
export async function writeLastSeen(db: Db, entries: SeenEntry[]): Promise<void> {
  if (!entries.length) return;
  const values = sql`jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as v(
      id int, organization_id int, at timestamptz, interval_s int, needs_reboot boolean, ip_addrs text[],
      ip_addrs_private text[], uptime_s bigint, logged_in_user text)`;
  await db.execute(sql`
    insert into ${devicePresence} as p (device_id, organization_id, last_seen_at, online_until, uptime_s)
      select v.id, v.organization_id, v.at, v.at + make_interval(secs => v.interval_s + ${ONLINE_GRACE_S}), v.uptime_s
        from ${values}
    on conflict (device_id) do update set
      last_seen_at = greatest(p.last_seen_at, excluded.last_seen_at),
      online_until = case when excluded.last_seen_at >= p.last_seen_at then excluded.online_until else p.online_until end,
      uptime_s = coalesce(excluded.uptime_s, p.uptime_s)`);
  await db.execute(sql`
    update ${devices} as d set
      needs_reboot = coalesce(v.needs_reboot, d.needs_reboot),
      ip_addrs = coalesce(v.ip_addrs, d.ip_addrs),
      ip_addrs_private = coalesce(v.ip_addrs_private, d.ip_addrs_private),
      logged_in_user = coalesce(v.logged_in_user, d.logged_in_user)
    from ${values}
    where d.id = v.id
      and (d.needs_reboot is distinct from coalesce(v.needs_reboot, d.needs_reboot)
        or d.ip_addrs is distinct from coalesce(v.ip_addrs, d.ip_addrs)
        or d.ip_addrs_private is distinct from coalesce(v.ip_addrs_private, d.ip_addrs_private)
        or d.logged_in_user is distinct from coalesce(v.logged_in_user, d.logged_in_user))`);
}

/**
 * Marks up to `limit` open commands whose deadline passed as `timed_out`; returns how many.
 * Rows another node is sweeping or a result is being written to are skipped, not waited for.
 */
export async function timeOutCommands(db: Db, now: Date, limit: number): Promise<number> {
  const overdue = db
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(
      and(
        inArray(deviceCommands.status, ['pending', 'in_progress']),
        sql`${deviceCommands.deadlineAt} < ${now.toISOString()}::timestamptz`,
      ),
    )
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(deviceCommands)
    .set({ status: 'timed_out', finishedAt: now })
    .where(inArray(deviceCommands.id, overdue))
    .returning({ id: deviceCommands.id });
  return rows.length;
}
