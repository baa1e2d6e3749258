import { PATCH_SEVERITIES } from '@patchwell/core/agent/agent-protocol.schema';
import { PATCH_AGE_BUCKETS, patchAgeDays } from '@patchwell/core/reports/patch-age';
import {
  REPORT_RUN_FLAGS,
  type NeedsAttentionCsvQuery,
  type NeedsAttentionDevice,
  type NeedsAttentionQuery,
  type NeedsAttentionReport,
  type PrepatchCsvQuery,
  type PrepatchDevice,
  type PrepatchQuery,
  type PrepatchReport,
  type PrepatchSummary,
} from '@patchwell/core/reports/reports.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { markOwnMetadata } from '../users/users.service';
import { findReportCache, saveReportCache } from './report-caches.store';
import { requireZone } from '../zones/zone-access.service';
import {
  countCompliance,
  countPendingPatches,
  findNonCompliantByIds,
  findNonCompliantDevices,
  findNonCompliantIds,
  findPrepatchByIds,
  findPrepatchDevices,
  findPrepatchIds,
  type NeedsAttentionRow,
  type NeedsAttentionSort,
  type PatchCountRow,
  type PrepatchRow,
  type PrepatchSort,
} from './device-reports.store';

/** Rows the CSV exports read per query. */
const EXPORT_PAGE = 1000;
/** How long a zone's prepatch summary is served before it is computed again. */
export const PREPATCH_SUMMARY_TTL_MS = 5 * 60_000;
const PREPATCH_SUMMARY = 'prepatch_summary';

function sortOf<F extends string>(sort: string | undefined, fallback: { field: F; dir: 'asc' | 'desc' }) {
  if (!sort) return fallback;
  const [field, dir] = sort.split(':');
  return { field: field as F, dir: dir === 'asc' ? ('asc' as const) : ('desc' as const) };
}

// ---------------------------------------------------------------- prepatch

function summaryOf(rows: PatchCountRow[]): PrepatchSummary {
  const total = rows.find((r) => r.severity === null && r.bucket === null);
  const bySeverity = new Map(rows.filter((r) => r.severity !== null).map((r) => [r.severity, r]));
  const byBucket = new Map(rows.filter((r) => r.bucket !== null).map((r) => [r.bucket, r]));
  const count = (r: PatchCountRow | undefined) => ({ devices: r?.devices ?? 0, patches: r?.patches ?? 0 });
  return {
    total: count(total),
    by_severity: PATCH_SEVERITIES.map((severity) => ({ severity, ...count(bySeverity.get(severity)) })),
    by_age: [...PATCH_AGE_BUCKETS, 'unknown' as const].map((bucket) => ({ bucket, ...count(byBucket.get(bucket)) })),
  };
}

function toPrepatchDevice(r: PrepatchRow, now: Date): PrepatchDevice {
  return {
    id: r.id,
    name: r.name,
    hostname: r.hostname,
    os_family: r.osFamily,
    os_name: r.osName,
    group_id: r.groupId,
    group_name: r.groupName,
    compliance: r.compliance,
    pending_patches: r.pending,
    critical: r.critical,
    high: r.high,
    medium: r.medium,
    low: r.low,
    other: r.other,
    oldest_published_at: r.oldest?.toISOString() ?? null,
    oldest_age_days: r.oldest ? patchAgeDays(r.oldest, now) : null,
  };
}

const PREPATCH_SORT: PrepatchSort = { field: 'pending_patches', dir: 'desc' };

/**
 * `GET /api/reports/prepatch` (Report.read): the zone's pending patches by severity and age
 * bucket, and a page of the devices that have them (filtered by severity, age and search).
 * Marks the caller's `prepatchReportRun`.
 */
export async function getPrepatch(ctx: AppContext, authz: Authz, query: PrepatchQuery): Promise<PrepatchReport> {
  const zone = await requireZone(ctx, authz, query.o, 'Report', 'read');
  const now = ctx.clock.now();
  const filter = { severity: query.severity, age: query.age, search: query.search };
  const [summary, page] = await Promise.all([
    prepatchSummary(ctx, zone.id, now),
    findPrepatchDevices(ctx.db, zone.id, filter, {
      sort: sortOf(query.sort, PREPATCH_SORT),
      offset: query.page * query.limit,
      limit: query.limit,
      now,
    }),
  ]);
  await markOwnMetadata(ctx, authz.userId, REPORT_RUN_FLAGS.prepatch);
  return {
    summary: summary.payload,
    data: page.rows.map((r) => toPrepatchDevice(r, now)),
    size: page.size,
    computed_at: summary.computedAt.toISOString(),
  };
}

/**
 * The zone's prepatch summary, as computed at most {@link PREPATCH_SUMMARY_TTL_MS} ago
 * (`report_caches`): counting a large zone's pending patches takes longer than a page
 * should, and the answer says when the figures are from. The table is always read live.
 */
export async function prepatchSummary(ctx: AppContext, zoneId: number, now: Date) {
  const cached = await findReportCache<PrepatchSummary>(ctx.db, zoneId, PREPATCH_SUMMARY);
  const age = cached ? now.getTime() - cached.computedAt.getTime() : Infinity;
  if (cached && age >= 0 && age < PREPATCH_SUMMARY_TTL_MS) return cached;
  const payload = summaryOf(await countPendingPatches(ctx.db, zoneId, now));
  await saveReportCache(ctx.db, zoneId, PREPATCH_SUMMARY, now, payload);
  return { computedAt: now, payload };
}

export const PREPATCH_CSV_COLUMNS: [keyof PrepatchDevice, string][] = [
  ['id', 'ID'],
  ['name', 'Name'],
  ['hostname', 'Hostname'],
  ['os_name', 'OS'],
  ['group_name', 'Group'],
  ['compliance', 'Compliance'],
  ['pending_patches', 'Pending patches'],
  ['critical', 'Critical'],
  ['high', 'High'],
  ['medium', 'Medium'],
  ['low', 'Low'],
  ['other', 'Other'],
  ['oldest_published_at', 'Oldest patch published'],
  ['oldest_age_days', 'Oldest patch age (days)'],
];

/** Pages of the prepatch table for its CSV (Report.read), checked before the first row is sent. */
export async function exportPrepatch(
  ctx: AppContext,
  authz: Authz,
  query: PrepatchCsvQuery,
): Promise<AsyncGenerator<PrepatchDevice[], void, void>> {
  const zone = await requireZone(ctx, authz, query.o, 'Report', 'read');
  return prepatchPages(ctx, zone.id, query, ctx.clock.now());
}

/**
 * Every row of a zone's prepatch table with the table's filters and sort, ages counted at
 * `now`, in pages: the CSV export's rows, and a scheduled report's (which checked its own
 * rights when it was saved).
 */
export async function prepatchPages(
  ctx: Pick<AppContext, 'db'>,
  zoneId: number,
  query: Pick<PrepatchCsvQuery, 'severity' | 'age' | 'search' | 'sort'>,
  now: Date,
): Promise<AsyncGenerator<PrepatchDevice[], void, void>> {
  const ids = await findPrepatchIds(
    ctx.db,
    zoneId,
    { severity: query.severity, age: query.age, search: query.search },
    { sort: sortOf(query.sort, PREPATCH_SORT), now },
  );
  async function* pages(): AsyncGenerator<PrepatchDevice[], void, void> {
    for (let i = 0; i < ids.length; i += EXPORT_PAGE) {
      const rows = await findPrepatchByIds(ctx.db, zoneId, ids.slice(i, i + EXPORT_PAGE));
      if (rows.length) yield rows.map((r) => toPrepatchDevice(r, now));
    }
  }
  return pages();
}

// ---------------------------------------------------------------- needs attention

function toNeedsAttentionDevice(r: NeedsAttentionRow): NeedsAttentionDevice {
  return {
    id: r.id,
    name: r.name,
    hostname: r.hostname,
    os_family: r.osFamily,
    os_name: r.osName,
    group_id: r.groupId,
    group_name: r.groupName,
    compliance: r.compliance,
    compliance_reason: r.complianceReason,
    pending_patches: r.pendingPatches,
    needs_reboot: r.needsReboot,
    last_seen_at: r.lastSeenAt?.toISOString() ?? null,
  };
}

const NEEDS_ATTENTION_SORT: NeedsAttentionSort = { field: 'compliance', dir: 'desc' };

/**
 * `GET /api/reports/needs-attention` (Report.read): the zone's devices that are not
 * compliant (pending, or needing attention) with the reason core's compliance rule gave.
 */
export async function getNeedsAttention(
  ctx: AppContext,
  authz: Authz,
  query: NeedsAttentionQuery,
): Promise<NeedsAttentionReport> {
  const zone = await requireZone(ctx, authz, query.o, 'Report', 'read');
  const [counts, page] = await Promise.all([
    countCompliance(ctx.db, zone.id),
    findNonCompliantDevices(
      ctx.db,
      zone.id,
      { compliance: query.compliance, search: query.search },
      { sort: sortOf(query.sort, NEEDS_ATTENTION_SORT), offset: query.page * query.limit, limit: query.limit },
    ),
  ]);
  return {
    summary: {
      total: counts.pending + counts.needs_attention,
      pending: counts.pending,
      needs_attention: counts.needs_attention,
    },
    data: page.rows.map(toNeedsAttentionDevice),
    size: page.size,
  };
}

export const NEEDS_ATTENTION_CSV_COLUMNS: [keyof NeedsAttentionDevice, string][] = [
  ['id', 'ID'],
  ['name', 'Name'],
  ['hostname', 'Hostname'],
  ['os_name', 'OS'],
  ['group_name', 'Group'],
  ['compliance', 'Compliance'],
  ['compliance_reason', 'Reason'],
  ['pending_patches', 'Pending patches'],
  ['needs_reboot', 'Needs reboot'],
  ['last_seen_at', 'Last seen'],
];

/** Pages of the needs-attention table for its CSV (Report.read). */
export async function exportNeedsAttention(
  ctx: AppContext,
  authz: Authz,
  query: NeedsAttentionCsvQuery,
): Promise<AsyncGenerator<NeedsAttentionDevice[], void, void>> {
  const zone = await requireZone(ctx, authz, query.o, 'Report', 'read');
  return needsAttentionPages(ctx, zone.id, query);
}

/** Every row of a zone's needs-attention table with its filters and sort, in pages (the CSV's and a scheduled report's). */
export async function needsAttentionPages(
  ctx: Pick<AppContext, 'db'>,
  zoneId: number,
  query: Pick<NeedsAttentionCsvQuery, 'compliance' | 'search' | 'sort'>,
): Promise<AsyncGenerator<NeedsAttentionDevice[], void, void>> {
  const ids = await findNonCompliantIds(
    ctx.db,
    zoneId,
    { compliance: query.compliance, search: query.search },
    sortOf(query.sort, NEEDS_ATTENTION_SORT),
  );
  async function* pages(): AsyncGenerator<NeedsAttentionDevice[], void, void> {
    for (let i = 0; i < ids.length; i += EXPORT_PAGE) {
      const rows = await findNonCompliantByIds(ctx.db, zoneId, ids.slice(i, i + EXPORT_PAGE));
      if (rows.length) yield rows.map(toNeedsAttentionDevice);
    }
  }
  return pages();
}

/** A zone's devices by compliance state now (the scheduled reports' summary). */
export async function complianceCounts(ctx: Pick<AppContext, 'db'>, zoneId: number) {
  return countCompliance(ctx.db, zoneId);
}
