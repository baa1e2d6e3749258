import { addDays, dayStart, daysBetween, startOfUtcDay, utcDay } from '@patchwell/core/reports/date-range';
import {
  DASHBOARD_ACTIVITY_DAYS,
  DASHBOARD_CRITICAL_DAYS,
  DASHBOARD_TOP,
  DASHBOARD_TREND_DAYS,
  DASHBOARD_TTL_MS,
} from '@patchwell/core/reports/dashboard.constants';
import type { DashboardQuery, FleetDashboard } from '@patchwell/core/reports/dashboard.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { requireZone } from '../zones/zone-access.service';
import { countMissingCritical, findVulnerableSoftware } from './dashboard.store';
import { prepatchSummary } from './device-reports.service';
import { toPatchHistoryEntry } from './overview.service';
import { countDeviceStates, countPatchDays, findPatchHistory, findSnapshots } from './overview.store';
import { claimReportRefresh, findReportCache, saveReportCache, touchReportCache } from './report-caches.store';

const DASHBOARD = 'dashboard';
/** How often each node looks for dashboards to compute ahead (reports.jobs.ts). */
export const DASHBOARD_REFRESH_INTERVAL_MS = 60_000;
/** A dashboard is computed ahead once this old, so a tick or two later it is still within its TTL. */
const REFRESH_AT_AGE_MS = DASHBOARD_TTL_MS - 2 * DASHBOARD_REFRESH_INTERVAL_MS;
/** Zones whose dashboard someone asked for within this are kept computed ahead. */
export const DASHBOARD_KEEP_WARM_MS = 60 * 60_000;
/**
 * Older figures than the TTL are still served (and computed again ahead, within a tick)
 * up to this age; older still, the request computes them (nobody asked for a day).
 */
export const DASHBOARD_STALE_MAX_MS = 24 * 60 * 60_000;
/** A claim to compute ahead older than this is a node that died computing: another takes it. */
const REFRESH_CLAIM_MS = 5 * 60_000;
/** Failures older than this are not "recent". */
const FAILURE_DAYS = 30;

const percent = (part: number | null, total: number | null) =>
  part === null || !total ? null : Math.round((part / total) * 1000) / 10;

/**
 * `GET /api/reports/dashboard` (Endpoint.read, the guard the dashboard has always had): the
 * zone's fleet at a glance from `report_caches` (a 100,000-device zone's counts take longer
 * than a landing page should); `computed_at` says when the figures are from. The figures of
 * a zone someone looks at are computed ahead ({@link refreshDashboards}) before their
 * {@link DASHBOARD_TTL_MS} runs out; older ones are still served while the next tick computes
 * them again (stale-while-revalidate), up to {@link DASHBOARD_STALE_MAX_MS}. Only a zone
 * without figures, or with figures nobody asked for in a day, waits for them.
 */
export async function getFleetDashboard(ctx: AppContext, authz: Authz, query: DashboardQuery): Promise<FleetDashboard> {
  const zone = await requireZone(ctx, authz, query.o, 'Endpoint', 'read');
  const now = ctx.clock.now();
  const cached = await findReportCache<FleetDashboard>(ctx.db, zone.id, DASHBOARD);
  const age = cached ? now.getTime() - cached.computedAt.getTime() : Infinity;
  if (cached && age >= 0 && age < DASHBOARD_STALE_MAX_MS) {
    // Written at most once a TTL: a busy landing page does not write at every view.
    await touchReportCache(ctx.db, zone.id, DASHBOARD, now, DASHBOARD_TTL_MS);
    return cached.payload;
  }
  const payload = await computeDashboard(ctx, zone.id, now);
  await saveReportCache(ctx.db, zone.id, DASHBOARD, now, payload, now);
  return payload;
}

/**
 * Computes ahead the dashboards of the zones someone looked at within
 * {@link DASHBOARD_KEEP_WARM_MS} whose figures are about to pass their TTL (or have), one zone
 * at a time, each claimed in PostgreSQL first so that of several nodes ticking at once one
 * computes it. Returns the zones computed (at most `max`).
 */
export async function refreshDashboards(ctx: AppContext, options: { max?: number } = {}): Promise<number[]> {
  const done: number[] = [];
  while (done.length < (options.max ?? 20)) {
    const now = ctx.clock.now();
    const zoneId = await claimReportRefresh(ctx.db, DASHBOARD, {
      now,
      computedBy: new Date(now.getTime() - REFRESH_AT_AGE_MS),
      requestedSince: new Date(now.getTime() - DASHBOARD_KEEP_WARM_MS),
      claimedSince: new Date(now.getTime() - REFRESH_CLAIM_MS),
    });
    if (zoneId === null) break;
    await saveReportCache(ctx.db, zoneId, DASHBOARD, now, await computeDashboard(ctx, zoneId, now));
    done.push(zoneId);
  }
  return done;
}

async function computeDashboard(ctx: AppContext, zoneId: number, now: Date): Promise<FleetDashboard> {
  const today = utcDay(now);
  const trendStart = utcDay(addDays(now, -(DASHBOARD_TREND_DAYS - 1)));
  const activityStart = utcDay(addDays(now, -(DASHBOARD_ACTIVITY_DAYS - 1)));
  const tomorrow = addDays(startOfUtcDay(now), 1);
  const [state, snapshots, patchDays, missingCritical, pending, software, failures] = await Promise.all([
    countDeviceStates(ctx.db, zoneId, now),
    findSnapshots(ctx.db, zoneId, trendStart, today),
    countPatchDays(ctx.db, zoneId, dayStart(activityStart), tomorrow),
    countMissingCritical(ctx.db, zoneId, now, DASHBOARD_CRITICAL_DAYS),
    prepatchSummary(ctx, zoneId, now),
    findVulnerableSoftware(ctx.db, zoneId, DASHBOARD_TOP),
    findPatchHistory(
      ctx.db,
      zoneId,
      { from: addDays(startOfUtcDay(now), -FAILURE_DAYS), to: tomorrow },
      { outcome: 'failed', offset: 0, limit: DASHBOARD_TOP },
    ),
  ]);
  const snapshotOf = new Map(snapshots.map((s) => [s.day, s]));
  const patchesOf = new Map(patchDays.map((p) => [p.day, p]));
  return {
    computed_at: now.toISOString(),
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
    compliance: {
      percent: percent(state.compliant, state.total),
      trend: daysBetween(dayStart(trendStart), now).map((date) => {
        // Today from the devices now, the days gone by from their snapshots (as the overview).
        const snap = date === today ? { compliant: state.compliant, total: state.total } : snapshotOf.get(date);
        const compliant = snap?.compliant ?? null;
        const total = snap?.total ?? null;
        return { date, compliant, total, percent: percent(compliant, total) };
      }),
    },
    missing_critical: { days: DASHBOARD_CRITICAL_DAYS, devices: missingCritical },
    pending: pending.payload,
    vulnerable_software: software.map((s) => ({
      name: s.name,
      devices: s.devices,
      critical_devices: s.criticalDevices,
    })),
    recent_failures: failures.rows.map(toPatchHistoryEntry),
    activity: daysBetween(dayStart(activityStart), now).map((date) => ({
      date,
      installed: patchesOf.get(date)?.installed ?? 0,
      failed: patchesOf.get(date)?.failures ?? 0,
    })),
  };
}
