import {
  addDays,
  checkReportDay,
  dayStart,
  daysBetween,
  DATE_RANGE_ERRORS,
  startOfUtcDay,
  utcDay,
} from '@patchwell/core/reports/date-range';
import {
  OVERVIEW_DAYS_BACK,
  REPORT_RUN_FLAGS,
  type Overview,
  type OverviewQuery,
  type PatchHistory,
  type PatchHistoryEntry,
  type PatchHistoryQuery,
} from '@patchwell/core/reports/reports.schema';
import type { AppContext } from '../../context';
import { validationError, type FieldErrors } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { markOwnMetadata } from '../users/users.service';
import { requireZone } from '../zones/zone-access.service';
import {
  countDeviceStates,
  countPatchDays,
  findPatchHistory,
  findSnapshots,
  upsertSnapshots,
  type PatchHistoryRow,
} from './overview.store';

type Ctx = AppContext;

/**
 * `GET /api/reports/overview` (Report.read): from `startDate` (default 10 days back) to
 * today, per UTC day: compliance (today from the devices now, earlier days from their
 * snapshots), patches installed and failed install commands; and the devices by state now.
 * Marks the caller's `overviewReportRun`.
 */
export async function getOverview(ctx: Ctx, authz: Authz, query: OverviewQuery): Promise<Overview> {
  const zone = await requireZone(ctx, authz, query.o, 'Report', 'read');
  const now = ctx.clock.now();
  const today = utcDay(now);
  const startDate = query.startDate ?? utcDay(addDays(now, -OVERVIEW_DAYS_BACK));
  const issue = checkReportDay(startDate, now);
  if (issue) throw validationError({ startDate: [issue] });
  const days = daysBetween(dayStart(startDate), now);
  const [state, snapshots, patchDays] = await Promise.all([
    countDeviceStates(ctx.db, zone.id, now),
    findSnapshots(ctx.db, zone.id, startDate, today),
    countPatchDays(ctx.db, zone.id, dayStart(startDate), addDays(startOfUtcDay(now), 1)),
  ]);
  const snapshotOf = new Map(snapshots.map((s) => [s.day, s]));
  const patchesOf = new Map(patchDays.map((p) => [p.day, p]));
  await markOwnMetadata(ctx, authz.userId, REPORT_RUN_FLAGS.overview);
  return {
    start_date: startDate,
    end_date: today,
    computed_at: now.toISOString(),
    days: days.map((day) => {
      const snap = day === today ? null : snapshotOf.get(day);
      const compliance =
        day === today
          ? { compliant: state.compliant, not_compliant: state.pending + state.needsAttention, total: state.total }
          : snap
            ? { compliant: snap.compliant, not_compliant: snap.pending + snap.needsAttention, total: snap.total }
            : { compliant: null, not_compliant: null, total: null };
      const p = patchesOf.get(day);
      return { date: day, ...compliance, patches_installed: p?.installed ?? 0, failures: p?.failures ?? 0 };
    }),
    devices: {
      total: state.total,
      online: state.online,
      offline: state.total - state.online,
      needs_reboot: state.needsReboot,
      compliant: state.compliant,
      pending: state.pending,
      needs_attention: state.needsAttention,
      with_pending_patches: state.withPendingPatches,
    },
  };
}

export function toPatchHistoryEntry(r: PatchHistoryRow): PatchHistoryEntry {
  const names = Array.isArray(r.names) ? r.names.filter((n): n is string => typeof n === 'string') : [];
  return {
    command_id: r.commandId,
    device_id: r.deviceId,
    device_name: r.deviceName,
    os_family: r.osFamily,
    type: r.type,
    patches: names.length ? names : r.pkg ? [r.pkg] : [],
    status: r.status,
    simulated: r.simulated,
    exit_code: r.exitCode,
    finished_at: new Date(r.finishedAt).toISOString(),
    policy_id: r.policyId,
    policy_name: r.policyName,
  };
}

/**
 * `GET /api/reports/patch-history` (Report.read): the install commands that finished from
 * `startDate` (default 10 days back) to `endDate` (default today), newest first; `outcome`
 * picks those the overview counts as installed or as failures.
 */
export async function listPatchHistory(ctx: Ctx, authz: Authz, query: PatchHistoryQuery): Promise<PatchHistory> {
  const zone = await requireZone(ctx, authz, query.o, 'Report', 'read');
  const now = ctx.clock.now();
  const startDate = query.startDate ?? utcDay(addDays(now, -OVERVIEW_DAYS_BACK));
  const endDate = query.endDate ?? utcDay(now);
  const errors: FieldErrors = {};
  const startIssue = checkReportDay(startDate, now);
  const endIssue = checkReportDay(endDate, now);
  if (startIssue) errors.startDate = [startIssue];
  if (endIssue) errors.endDate = [endIssue];
  if (!startIssue && !endIssue && endDate < startDate) errors.endDate = [DATE_RANGE_ERRORS.order];
  if (Object.keys(errors).length) throw validationError(errors);
  const range = { from: dayStart(startDate), to: addDays(dayStart(endDate), 1) };
  const { rows, size } = await findPatchHistory(ctx.db, zone.id, range, {
    outcome: query.outcome,
    offset: query.page * query.limit,
    limit: query.limit,
  });
  return { data: rows.map(toPatchHistoryEntry), size };
}

/**
 * Writes today's compliance snapshot of every zone (what the overview shows for the days
 * gone by). Run at start and every hour by each node; see reports.jobs.ts.
 */
export async function snapshotCompliance(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<number> {
  const now = ctx.clock.now();
  return upsertSnapshots(ctx.db, utcDay(now), now);
}
