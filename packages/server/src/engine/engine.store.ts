import { and, asc, eq, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  policies,
  policyRuns,
  policyScheduleSlots,
  type policyDeviceResults,
  type RunTrigger,
} from '../db/policies.schema';
import type { PatchSeverity } from '@patchwell/core/agent/agent-protocol.schema';
import { queryRows } from '../db/raw';
import { devicePatches, devicePresence, deviceSoftware, devices } from '../db/devices.schema';
import { organizations } from '../db/schema';
import { onlineAt } from '../modules/devices/presence.store';

/**
 * SQL of the policy engine: schedule slots, runs, devices and their inventory (results and
 * standings are in results.store.ts). Bulk writes go in chunks, one statement per chunk, so a run over 100,000 devices is a few
 * dozen statements, not 100,000.
 */

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Exec = Db | Tx;
export type PolicyRow = typeof policies.$inferSelect;
export type RunRow = typeof policyRuns.$inferSelect;
export type ResultRow = typeof policyDeviceResults.$inferSelect;

/** Rows per multi-row INSERT: well under PostgreSQL's 65,535 parameters. */
export const CHUNK = 2000;

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// ---------------------------------------------------------------- slots

/** Replaces a policy's slots with `slots` (keys not listed are deleted; listed ones upserted). */
export async function replaceSlots(db: Exec, policyId: number, slots: { tzKey: string; nextRunAt: Date | null }[]) {
  const keys = slots.map((s) => s.tzKey);
  await db
    .delete(policyScheduleSlots)
    .where(
      and(
        eq(policyScheduleSlots.policyId, policyId),
        keys.length ? sql`${policyScheduleSlots.tzKey} <> all(${sql.param(keys)}::text[])` : undefined,
      ),
    );
  if (!slots.length) return;
  await db
    .insert(policyScheduleSlots)
    .values(slots.map((s) => ({ policyId, tzKey: s.tzKey, nextRunAt: s.nextRunAt })))
    .onConflictDoUpdate({
      target: [policyScheduleSlots.policyId, policyScheduleSlots.tzKey],
      set: { nextRunAt: sql`excluded.next_run_at` },
    });
}

/** Adds slots that do not exist yet (a device reported a new local timezone); existing ones keep their time. */
export async function addMissingSlots(db: Exec, rows: { policyId: number; tzKey: string; nextRunAt: Date | null }[]) {
  for (const chunk of chunks(rows)) {
    await db.insert(policyScheduleSlots).values(chunk).onConflictDoNothing();
  }
}

export type SlotRow = typeof policyScheduleSlots.$inferSelect;

export async function findSlots(db: Exec, policyIds: number[]): Promise<SlotRow[]> {
  if (!policyIds.length) return [];
  return db.select().from(policyScheduleSlots).where(inArray(policyScheduleSlots.policyId, policyIds));
}

/**
 * Locks up to `limit` due slots of active policies for this transaction. Slots another
 * node holds are skipped, not waited for: that node is creating their runs.
 */
export async function lockDueSlots(tx: Tx, now: Date, limit: number) {
  return tx
    .select({
      slot: policyScheduleSlots,
      policy: policies,
      // What the plan rules read of the policy's zone: a type outside its plan does not run.
      zone: {
        plan: organizations.plan,
        trialEndTime: organizations.trialEndTime,
        trialExpired: organizations.trialExpired,
      },
    })
    .from(policyScheduleSlots)
    .innerJoin(policies, eq(policies.id, policyScheduleSlots.policyId))
    .innerJoin(organizations, eq(organizations.id, policies.organizationId))
    .where(and(lte(policyScheduleSlots.nextRunAt, now), eq(policies.status, 'active'), isNull(policies.deletedAt)))
    .orderBy(asc(policyScheduleSlots.nextRunAt))
    .limit(limit)
    .for('update', { of: policyScheduleSlots, skipLocked: true });
}

/** The earliest time a slot of an active policy is due, or null when none is scheduled. */
export async function findNextDue(db: Exec): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | string | null>`min(${policyScheduleSlots.nextRunAt})` })
    .from(policyScheduleSlots)
    .innerJoin(policies, eq(policies.id, policyScheduleSlots.policyId))
    .where(and(eq(policies.status, 'active'), isNull(policies.deletedAt)));
  return row?.at ? new Date(row.at) : null;
}

export async function setSlotNextRun(tx: Tx, slotId: number, nextRunAt: Date | null) {
  await tx.update(policyScheduleSlots).set({ nextRunAt }).where(eq(policyScheduleSlots.id, slotId));
}

/** Distinct local timezones of each zone's devices (null reported as UTC). */
export async function deviceTimezonesByZone(db: Exec, zoneIds: number[]): Promise<{ zoneId: number; tz: string }[]> {
  if (!zoneIds.length) return [];
  const rows = await queryRows<{ zone_id: number; tz: string }>(
    db as Db,
    sql`select distinct ${devices.organizationId} as zone_id, coalesce(${devices.timezone}, 'UTC') as tz
          from ${devices}
         where ${devices.organizationId} = any(${sql.param(zoneIds)}::int[]) and ${devices.removedAt} is null`,
  );
  return rows.map((r) => ({ zoneId: Number(r.zone_id), tz: r.tz }));
}

/** Active local-time policies (their slots follow the timezones their zone's devices report). */
export async function findLocalTimePolicies(db: Exec): Promise<PolicyRow[]> {
  return db
    .select()
    .from(policies)
    .where(and(eq(policies.status, 'active'), eq(policies.useScheduledTimezone, false), isNull(policies.deletedAt)));
}

/** The zone's active worklet policies (or only `onlyPolicyId`, when given). */
export async function findActiveCustomPolicies(db: Exec, zoneId: number, onlyPolicyId?: number): Promise<PolicyRow[]> {
  return db
    .select()
    .from(policies)
    .where(
      and(
        eq(policies.organizationId, zoneId),
        eq(policies.type, 'custom'),
        eq(policies.status, 'active'),
        isNull(policies.deletedAt),
        onlyPolicyId === undefined ? undefined : eq(policies.id, onlyPolicyId),
      ),
    );
}

// ---------------------------------------------------------------- runs

/** A scheduled run; null when one already exists for this slot and instant (the unique index). */
export async function insertScheduledRun(
  tx: Tx,
  values: {
    policyId: number;
    organizationId: number;
    trigger: RunTrigger;
    tzKey: string;
    scheduledFor: Date;
    now: Date;
  },
): Promise<RunRow | null> {
  const [row] = await tx
    .insert(policyRuns)
    .values({
      policyId: values.policyId,
      organizationId: values.organizationId,
      trigger: values.trigger,
      tzKey: values.tzKey,
      scheduledFor: values.scheduledFor,
      createdAt: values.now,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function insertRun(db: Exec, values: typeof policyRuns.$inferInsert): Promise<RunRow> {
  const [row] = await db.insert(policyRuns).values(values).returning();
  return row!;
}

/** Locks one run waiting to be dispatched (`created`), skipping runs another node dispatches. */
export async function lockCreatedRun(tx: Tx, runId?: number) {
  const [row] = await tx
    .select({ run: policyRuns, policy: policies })
    .from(policyRuns)
    .innerJoin(policies, eq(policies.id, policyRuns.policyId))
    .where(and(eq(policyRuns.status, 'created'), runId === undefined ? undefined : eq(policyRuns.id, runId)))
    .orderBy(asc(policyRuns.id))
    .limit(1)
    .for('update', { of: policyRuns, skipLocked: true });
  return row;
}

/**
 * Serialises run starts of one policy until the caller's transaction ends (every node:
 * an advisory lock in PostgreSQL), so two "Run now" cannot both find no open run, and a run's dispatch
 * sees every command an earlier run of the policy queued (dispatch.ts).
 */
export async function lockPolicyRunStart(tx: Tx, policyId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${RUN_START_LOCK}::int, ${policyId}::int)`);
}
/** The advisory lock space of run starts (the first key of the two-key form). */
const RUN_START_LOCK = 0x5057_0006;

export async function updateRun(db: Exec, runId: number, patch: Partial<RunRow>) {
  await db.update(policyRuns).set(patch).where(eq(policyRuns.id, runId));
}

// ---------------------------------------------------------------- devices and inventory

export type CandidateDevice = {
  id: number;
  hostname: string;
  customName: string | null;
  tags: string[];
  ipAddrs: string[];
  ipAddrsPrivate: string[];
  osFamily: string;
  osName: string;
  osVersion: string;
  groupId: number;
  /** Its IANA timezone (UTC when it reported none). */
  timezone: string;
  isOnline: boolean;
};

/** The zone's live devices in `groupIds` (and among `ids`, when given), whether online, and their timezone. */
export async function findCandidateDevices(
  db: Exec,
  zoneId: number,
  options: { groupIds: number[] | null; ids: number[] | null; now: Date },
): Promise<CandidateDevice[]> {
  const rows = await db
    .select({
      id: devices.id,
      hostname: devices.hostname,
      customName: devices.customName,
      tags: devices.tags,
      ipAddrs: devices.ipAddrs,
      ipAddrsPrivate: devices.ipAddrsPrivate,
      osFamily: devices.osFamily,
      osName: devices.osName,
      osVersion: devices.osVersion,
      groupId: devices.groupId,
      timezone: sql<string>`coalesce(${devices.timezone}, 'UTC')`,
      isOnline: onlineAt(options.now),
    })
    .from(devices)
    .leftJoin(devicePresence, eq(devicePresence.deviceId, devices.id))
    .where(
      and(
        eq(devices.organizationId, zoneId),
        isNull(devices.removedAt),
        options.groupIds ? inArray(devices.groupId, options.groupIds.length ? options.groupIds : [-1]) : undefined,
        options.ids ? inArray(devices.id, options.ids.length ? options.ids : [-1]) : undefined,
      ),
    )
    .orderBy(asc(devices.id));
  return rows.map((r) => ({ ...r, isOnline: Boolean(r.isOnline) }));
}

/** A device's available patch, in the shape core's patch selection reads (`published_at` ISO 8601). */
export type StoredPatch = {
  name: string;
  version: string;
  current_version: string | null;
  severity: PatchSeverity;
  cves: string[];
  kb: string | null;
  source: string | null;
  published_at: string | null;
};

/**
 * One JSON aggregate of `device_patches` per device, built by the database: a 100,000-device
 * run reads 100,000 rows the driver hands to `JSON.parse`, not a million rows it parses column
 * by column (which, with the garbage it left, was most of a large run's time).
 */
async function patchesPerDevice<T>(db: Exec, deviceIds: number[], aggregate: SQL): Promise<Map<number, T[]>> {
  const out = new Map<number, T[]>();
  for (const chunk of chunks(deviceIds, 10_000)) {
    const rows = await queryRows<{ device_id: number; agg: T[] | string }>(
      db as Db,
      sql`select device_id, ${aggregate} as agg
            from ${devicePatches}
           where device_id = any(${sql.param(chunk)}::int[])
           group by device_id`,
    );
    // node-postgres parses json; PGlite may hand the text over.
    for (const r of rows) out.set(Number(r.device_id), typeof r.agg === 'string' ? (JSON.parse(r.agg) as T[]) : r.agg);
  }
  return out;
}

/** Available patches of the devices, from their stored inventories, per device. */
export function findPatchesByDevice(db: Exec, deviceIds: number[]): Promise<Map<number, StoredPatch[]>> {
  return patchesPerDevice<StoredPatch>(
    db,
    deviceIds,
    sql`json_agg(json_build_object('name', name, 'version', version, 'current_version', current_version,
             'severity', severity, 'cves', cves, 'kb', kb, 'source', source, 'published_at', published_at) order by id)`,
  );
}

/** Installed packages named `name` (any case) on the devices. */
export async function findSoftwareNamed(
  db: Exec,
  deviceIds: number[],
  name: string,
): Promise<{ deviceId: number; name: string; version: string }[]> {
  const out: { deviceId: number; name: string; version: string }[] = [];
  for (const chunk of chunks(deviceIds, 5000)) {
    const rows = await db
      .select({ deviceId: deviceSoftware.deviceId, name: deviceSoftware.name, version: deviceSoftware.version })
      .from(deviceSoftware)
      .where(
        and(
          sql`${deviceSoftware.deviceId} = any(${sql.param(chunk)}::int[])`,
          sql`lower(${deviceSoftware.name}) = lower(${name})`,
        ),
      );
    out.push(...rows);
  }
  return out;
}
