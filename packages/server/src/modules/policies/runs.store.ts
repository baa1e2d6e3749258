import { and, asc, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../engine/engine.store';
import type { Db } from '../../db/client';
import {
  devicePolicyStatus,
  policies,
  policyApprovals,
  policyDeviceResults,
  policyRuns,
  policyScheduleSlots,
  type ApprovalStatus,
} from '../../db/policies.schema';
import { devices } from '../../db/devices.schema';
import { deviceFiltersHoldSql, standingPatchesSql, summaryOf } from '../devices/compliance.store';

export type RunRow = typeof policyRuns.$inferSelect;
export type ResultRow = typeof policyDeviceResults.$inferSelect;
export type ResultWithDevice = ResultRow & { deviceName: string };
export type ApprovalRow = typeof policyApprovals.$inferSelect;

/** A policy's runs since `since`, newest first. */
export async function findRuns(
  db: Db,
  policyId: number,
  options: { since: Date; offset: number; limit: number },
): Promise<{ rows: RunRow[]; size: number }> {
  const w = and(eq(policyRuns.policyId, policyId), gte(policyRuns.createdAt, options.since));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(policyRuns)
      .where(w)
      .orderBy(desc(policyRuns.createdAt), desc(policyRuns.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(policyRuns)
      .where(w),
  ]);
  return { rows, size: total?.n ?? 0 };
}

export async function findRun(db: Db, policyId: number, runId: number): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(policyRuns)
    .where(and(eq(policyRuns.policyId, policyId), eq(policyRuns.id, runId)))
    .limit(1);
  return row;
}

/** A run's per-device results with the device's name, by device name. */
export async function findResults(
  db: Db,
  runId: number,
  options: { status?: string; offset: number; limit: number },
): Promise<{ rows: ResultWithDevice[]; size: number }> {
  const w = and(
    eq(policyDeviceResults.runId, runId),
    options.status ? sql`${policyDeviceResults.status} = ${options.status}` : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        result: policyDeviceResults,
        deviceName: sql<string>`coalesce(${devices.customName}, ${devices.hostname})`,
      })
      .from(policyDeviceResults)
      .innerJoin(devices, eq(devices.id, policyDeviceResults.deviceId))
      .where(w)
      .orderBy(asc(sql`lower(coalesce(${devices.customName}, ${devices.hostname}))`), asc(policyDeviceResults.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(policyDeviceResults)
      .where(w),
  ]);
  return { rows: rows.map((r) => ({ ...r.result, deviceName: r.deviceName })), size: total?.n ?? 0 };
}

/**
 * The device's standing against each live policy of the zone that has one and still targets
 * it (its group, and its device filters hold: the statuses its compliance and the policy
 * list count), with the last result and the patches of it still pending.
 */
export async function findDevicePolicies(db: Db, zoneId: number, deviceId: number, groupId: number, tz: string) {
  const rows = await db
    .select({
      policy: policies,
      standing: devicePolicyStatus,
      result: policyDeviceResults,
      patches: standingPatchesSql('"device_policy_status"', '"policies"', '"policy_device_results"'),
      nextRun: sql<Date | null>`(select min(s.next_run_at) from ${policyScheduleSlots} s
         where s.policy_id = ${policies.id}
           and s.tz_key = case when ${policies.useScheduledTimezone} then ${policies.scheduledTimezone} else ${tz} end)`,
    })
    .from(devicePolicyStatus)
    .innerJoin(policies, eq(policies.id, devicePolicyStatus.policyId))
    .innerJoin(devices, eq(devices.id, devicePolicyStatus.deviceId))
    .leftJoin(policyDeviceResults, eq(policyDeviceResults.id, devicePolicyStatus.lastResultId))
    .where(
      and(
        eq(devicePolicyStatus.organizationId, zoneId),
        eq(devicePolicyStatus.deviceId, deviceId),
        isNull(policies.deletedAt),
        sql`${groupId}::int = any(${policies.serverGroups})`,
        sql.raw(deviceFiltersHoldSql('"policies"', '"devices"')),
      ),
    )
    .orderBy(asc(sql`lower(${policies.name})`));
  return rows.map((r) => ({ ...r, patches: summaryOf(r.patches) }));
}

/** The device's latest results across policies since `since`, newest first. */
export async function findDeviceResults(db: Db, deviceId: number, since: Date, limit: number) {
  return db
    .select()
    .from(policyDeviceResults)
    .where(and(eq(policyDeviceResults.deviceId, deviceId), gte(policyDeviceResults.createdAt, since)))
    .orderBy(desc(policyDeviceResults.id))
    .limit(limit);
}

// ---------------------------------------------------------------- approvals

export async function findApprovals(
  db: Db,
  zoneId: number,
  options: { status?: ApprovalStatus; policyId?: number; policyIds: number[]; offset: number; limit: number },
): Promise<{ rows: (ApprovalRow & { policyName: string })[]; size: number }> {
  const w = and(
    eq(policyApprovals.organizationId, zoneId),
    options.status ? eq(policyApprovals.status, options.status) : undefined,
    options.policyId ? eq(policyApprovals.policyId, options.policyId) : undefined,
    sql`${policyApprovals.policyId} = any(${sql.param(options.policyIds.length ? options.policyIds : [-1])}::int[])`,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ approval: policyApprovals, policyName: policies.name })
      .from(policyApprovals)
      .innerJoin(policies, and(eq(policies.id, policyApprovals.policyId), isNull(policies.deletedAt)))
      .where(w)
      .orderBy(asc(sql`lower(${policies.name})`), asc(policyApprovals.patchName), asc(policyApprovals.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(policyApprovals)
      .innerJoin(policies, and(eq(policies.id, policyApprovals.policyId), isNull(policies.deletedAt)))
      .where(w),
  ]);
  return { rows: rows.map((r) => ({ ...r.approval, policyName: r.policyName })), size: total?.n ?? 0 };
}

export async function findApproval(db: Db, zoneId: number, id: number): Promise<ApprovalRow | undefined> {
  const [row] = await db
    .select()
    .from(policyApprovals)
    .where(and(eq(policyApprovals.organizationId, zoneId), eq(policyApprovals.id, id)))
    .limit(1);
  return row;
}

export async function decideApproval(
  db: Db,
  id: number,
  decision: { status: ApprovalStatus; decidedBy: number; decidedAt: Date },
): Promise<ApprovalRow> {
  const [row] = await db.update(policyApprovals).set(decision).where(eq(policyApprovals.id, id)).returning();
  return row!;
}

/** Results per status of each run. */
export async function countResultsByStatus(db: Db, runIds: number[]): Promise<Map<number, Record<string, number>>> {
  const out = new Map<number, Record<string, number>>();
  if (!runIds.length) return out;
  const rows = await db
    .select({
      runId: policyDeviceResults.runId,
      status: policyDeviceResults.status,
      n: sql<number>`count(*)`.mapWith(Number),
    })
    .from(policyDeviceResults)
    .where(inArray(policyDeviceResults.runId, runIds))
    .groupBy(policyDeviceResults.runId, policyDeviceResults.status);
  for (const r of rows) {
    const counts = out.get(r.runId) ?? {};
    counts[r.status] = r.n;
    out.set(r.runId, counts);
  }
  return out;
}

/**
 * An open run of the policy that a new run on `deviceIds` (null: every targeted device)
 * would double: one not dispatched yet that covers any of them, or one holding a command
 * still open (pending or in progress) on any of them. Results that wait for an offline
 * device without a command are not counted: a newer run supersedes those.
 */
export async function findOpenRunOn(tx: Tx, policyId: number, deviceIds: number[] | null): Promise<number | null> {
  const overlaps = (ids: typeof policyRuns.deviceIds) =>
    deviceIds === null ? sql`true` : sql`(${ids} is null or ${ids} && ${sql.param(deviceIds)}::int[])`;
  const [created] = await tx
    .select({ id: policyRuns.id })
    .from(policyRuns)
    .where(and(eq(policyRuns.policyId, policyId), eq(policyRuns.status, 'created'), overlaps(policyRuns.deviceIds)))
    .limit(1);
  if (created) return created.id;
  const [open] = await tx
    .select({ id: policyDeviceResults.runId })
    .from(policyDeviceResults)
    .where(
      and(
        eq(policyDeviceResults.policyId, policyId),
        inArray(policyDeviceResults.status, ['pending', 'in_progress']),
        sql`${policyDeviceResults.commandId} is not null`,
        deviceIds === null ? undefined : inArray(policyDeviceResults.deviceId, deviceIds),
      ),
    )
    .limit(1);
  return open?.id ?? null;
}
