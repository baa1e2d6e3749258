import { nextRun, policyScheduleTz } from '@patchwell/core/policies/schedule';
import {
  addMissingSlots,
  deviceTimezonesByZone,
  findLocalTimePolicies,
  findSlots,
  replaceSlots,
  type PolicyRow,
  type Tx,
} from './engine.store';
import type { Db } from '../db/client';

/** The schedule fields of a policy row, as core's schedule arithmetic reads them. */
export function scheduleOf(policy: PolicyRow) {
  return {
    schedule_days: policy.scheduleDays,
    schedule_weeks_of_month: policy.scheduleWeeksOfMonth,
    schedule_months: policy.scheduleMonths,
    schedule_time: policy.scheduleTime,
  };
}

/** Whether the policy runs by itself at all: active, not deleted, with at least one day. */
export function isScheduled(policy: PolicyRow): boolean {
  return policy.status === 'active' && policy.deletedAt === null && (policy.scheduleDays & 0xfe) !== 0;
}

/** The policy's next run after `after` in the slot `tzKey` (its own offset, or a device timezone). */
export function nextRunOf(policy: PolicyRow, tzKey: string, after: Date): Date | null {
  const tz = policyScheduleTz(
    { use_scheduled_timezone: policy.useScheduledTimezone, scheduled_timezone: policy.scheduledTimezone },
    tzKey,
  );
  return nextRun(scheduleOf(policy), after, tz);
}

/**
 * Rewrites a policy's slots after it was saved: none when it does not run by itself; one
 * in its own timezone; or one per local timezone its zone's devices report.
 */
export async function rebuildSlots(db: Db | Tx, policy: PolicyRow, now: Date): Promise<void> {
  if (!isScheduled(policy)) return replaceSlots(db, policy.id, []);
  if (policy.useScheduledTimezone) {
    const key = policy.scheduledTimezone;
    return replaceSlots(db, policy.id, [{ tzKey: key, nextRunAt: nextRunOf(policy, key, now) }]);
  }
  const zones = await deviceTimezonesByZone(db, [policy.organizationId]);
  const keys = zones.length ? zones.map((z) => z.tz) : ['UTC'];
  return replaceSlots(
    db,
    policy.id,
    keys.map((tzKey) => ({ tzKey, nextRunAt: nextRunOf(policy, tzKey, now) })),
  );
}

/**
 * Adds slots for local timezones that devices started reporting after a local-time policy
 * was saved. Existing slots are never touched here, so this is safe on every node at once.
 */
export async function addNewLocalSlots(db: Db, now: Date): Promise<number> {
  const local = await findLocalTimePolicies(db);
  const scheduled = local.filter(isScheduled);
  if (!scheduled.length) return 0;
  const zones = await deviceTimezonesByZone(db, [...new Set(scheduled.map((p) => p.organizationId))]);
  const existing = new Set(
    (
      await findSlots(
        db,
        scheduled.map((p) => p.id),
      )
    ).map((s) => `${s.policyId}\u0000${s.tzKey}`),
  );
  const missing: { policyId: number; tzKey: string; nextRunAt: Date | null }[] = [];
  for (const policy of scheduled) {
    for (const { tz } of zones.filter((z) => z.zoneId === policy.organizationId)) {
      if (!existing.has(`${policy.id}\u0000${tz}`)) {
        missing.push({ policyId: policy.id, tzKey: tz, nextRunAt: nextRunOf(policy, tz, now) });
      }
    }
  }
  await addMissingSlots(db, missing);
  return missing.length;
}
