import { sql, type SQL } from 'drizzle-orm';
import type { OsFamily, PatchSeverity } from '@patchwell/core/agent/agent-protocol.schema';
import type { Compliance } from '@patchwell/core/devices/devices.schema';
import { PATCH_AGE_BOUNDS, PATCH_AGE_BUCKETS, type PatchAge } from '@patchwell/core/reports/patch-age';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/raw';
import { devicePatches, devicePresence, devices, serverGroups } from '../../db/devices.schema';
import { likeEscape } from '../devices/devices.store';

/**
 * The device reports' SQL: the prepatch report (pending patches by severity and age, and
 * the devices that have them) and the devices that are not compliant.
 */

const iso = (d: Date) => d.toISOString();
type Num = string | number;
const num = (v: Num | null | undefined) => Number(v ?? 0);

/** SQL: whole days since the patch was published (0 for a date ahead), null without a date. */
function ageDays(now: Date): SQL {
  return sql`greatest(0, floor(extract(epoch from (${iso(now)}::timestamptz - p.published_at)) / 86400))::int`;
}

/** SQL: the patch's age bucket, from core's bounds (PATCH_AGE_BOUNDS), `unknown` without a date. */
function ageBucket(now: Date): SQL {
  const whens = PATCH_AGE_BUCKETS.filter((b) => PATCH_AGE_BOUNDS[b].max !== null).map(
    (b) => sql` when ${ageDays(now)} <= ${PATCH_AGE_BOUNDS[b].max} then ${b}`,
  );
  const last = PATCH_AGE_BUCKETS.find((b) => PATCH_AGE_BOUNDS[b].max === null)!;
  return sql`(case when p.published_at is null then 'unknown'${sql.join(whens)} else ${last} end)`;
}

/** SQL: the search over a device's name, host name and addresses, as the device list searches. */
function searchSql(search: string | undefined): SQL {
  const s = search?.trim();
  if (!s) return sql``;
  const pattern = `%${likeEscape(s.toLowerCase())}%`;
  return sql` and device_search_text(d.custom_name, d.hostname, d.ip_addrs, d.ip_addrs_private) like ${pattern}`;
}

const LIVE = (zoneId: number) => sql`d.organization_id = ${zoneId} and d.removed_at is null`;

// ---------------------------------------------------------------- prepatch

export type PatchCountRow = {
  severity: PatchSeverity | null;
  bucket: PatchAge | null;
  devices: number;
  patches: number;
};

/**
 * The zone's pending (device, patch) pairs and the devices that have them: in all, by
 * severity and by age bucket, in one pass (grouping sets).
 */
export async function countPendingPatches(db: Db, zoneId: number, now: Date): Promise<PatchCountRow[]> {
  const rows = await queryRows<{
    severity: PatchSeverity;
    bucket: PatchAge;
    gs: number;
    gb: number;
    devices: Num;
    patches: Num;
  }>(
    db,
    sql`with pp as (
          select p.device_id, p.severity, ${ageBucket(now)} as bucket
            from ${devicePatches} p join ${devices} d on d.id = p.device_id
           where ${LIVE(zoneId)}
        )
        select severity, bucket, grouping(severity) as gs, grouping(bucket) as gb,
               count(distinct device_id) as devices, count(*) as patches
          from pp
         group by grouping sets ((severity), (bucket), ())`,
  );
  return rows.map((r) => ({
    severity: Number(r.gs) ? null : r.severity,
    bucket: Number(r.gb) ? null : r.bucket,
    devices: num(r.devices),
    patches: num(r.patches),
  }));
}

export type PrepatchFilter = { severity?: PatchSeverity; age?: PatchAge; search?: string };
export type PrepatchSort = { field: 'name' | 'pending_patches' | 'critical' | 'oldest_age_days'; dir: 'asc' | 'desc' };

export type PrepatchRow = {
  id: number;
  name: string;
  hostname: string;
  osFamily: OsFamily;
  osName: string;
  groupId: number;
  groupName: string;
  compliance: Compliance;
  pending: number;
  critical: number;
  high: number;
  medium: number;
  low: number;
  other: number;
  oldest: Date | null;
};

/** SQL: a patch matches the filter's severity and age. */
function patchMatch(f: PrepatchFilter, now: Date): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.severity) parts.push(sql`p.severity = ${f.severity}`);
  if (f.age) parts.push(sql`${ageBucket(now)} = ${f.age}`);
  return sql.join(parts, sql` and `);
}

/** Devices with pending patches and their counts; only those with a patch matching the filter. */
function perDevice(zoneId: number, f: PrepatchFilter, now: Date): SQL {
  return sql`select p.device_id,
                    count(*) as pending,
                    count(*) filter (where p.severity = 'critical') as critical,
                    count(*) filter (where p.severity = 'high') as high,
                    count(*) filter (where p.severity = 'medium') as medium,
                    count(*) filter (where p.severity = 'low') as low,
                    count(*) filter (where p.severity not in ('critical', 'high', 'medium', 'low')) as other,
                    min(p.published_at) as oldest
               from ${devicePatches} p join ${devices} d on d.id = p.device_id
              where ${LIVE(zoneId)}${searchSql(f.search)}
              group by p.device_id
             having count(*) filter (where ${patchMatch(f, now)}) > 0`;
}

const PREPATCH_ORDER: Record<PrepatchSort['field'], SQL> = {
  name: sql`lower(coalesce(d.custom_name, d.hostname))`,
  pending_patches: sql`pd.pending`,
  critical: sql`pd.critical`,
  // Older patch first = earlier publication: the age's order is the date's reversed.
  oldest_age_days: sql`pd.oldest`,
};

function prepatchOrder(sort: PrepatchSort): SQL {
  const key = PREPATCH_ORDER[sort.field];
  const ascending = sort.field === 'oldest_age_days' ? sort.dir === 'desc' : sort.dir === 'asc';
  return sql`${key} ${ascending ? sql`asc` : sql`desc`} nulls last, lower(coalesce(d.custom_name, d.hostname)), d.id`;
}

type RawPrepatch = Omit<PrepatchRow, 'pending' | 'critical' | 'high' | 'medium' | 'low' | 'other' | 'oldest'> &
  Record<'pending' | 'critical' | 'high' | 'medium' | 'low' | 'other', Num> & { oldest: string | Date | null };

const toPrepatch = (r: RawPrepatch): PrepatchRow => ({
  ...r,
  pending: num(r.pending),
  critical: num(r.critical),
  high: num(r.high),
  medium: num(r.medium),
  low: num(r.low),
  other: num(r.other),
  oldest: r.oldest === null ? null : new Date(r.oldest),
});

const PREPATCH_COLUMNS = sql`d.id, coalesce(d.custom_name, d.hostname) as name, d.hostname, d.os_family as "osFamily",
       d.os_name as "osName", d.group_id as "groupId", g.name as "groupName", d.compliance,
       pd.pending, pd.critical, pd.high, pd.medium, pd.low, pd.other, pd.oldest`;

/**
 * SQL: the zone's devices with pending patches (the count the inventory keeps on the device)
 * that have one matching the filter. Without a severity or age filter no patch row is read.
 */
function withPendingWhere(zoneId: number, f: PrepatchFilter, now: Date): SQL {
  const match =
    f.severity || f.age
      ? sql` and exists (select 1 from ${devicePatches} p where p.device_id = d.id and ${patchMatch(f, now)})`
      : sql``;
  return sql`${LIVE(zoneId)} and d.pending_patches > 0${match}${searchSql(f.search)}`;
}

const DEVICE_ORDER: Partial<Record<PrepatchSort['field'], SQL>> = {
  name: sql`lower(coalesce(d.custom_name, d.hostname))`,
  pending_patches: sql`d.pending_patches`,
};

/**
 * A page of the devices with pending patches that match the filter, and how many there are.
 * Ordered by name or by pending patches (the default), the page and the count are read from
 * the devices (their indexes hold the pending count) and only the page's patches are
 * counted; ordered by Critical count or oldest patch, every matching device's patches are.
 */
export async function findPrepatchDevices(
  db: Db,
  zoneId: number,
  f: PrepatchFilter,
  options: { sort: PrepatchSort; offset: number; limit: number; now: Date },
): Promise<{ rows: PrepatchRow[]; size: number }> {
  const key = DEVICE_ORDER[options.sort.field];
  if (key) {
    const where = withPendingWhere(zoneId, f, options.now);
    const dir = options.sort.dir === 'asc' ? sql`asc` : sql`desc`;
    const [ids, [count]] = await Promise.all([
      queryRows<{ id: number }>(
        db,
        sql`select d.id from ${devices} d where ${where}
             order by ${key} ${dir}, lower(coalesce(d.custom_name, d.hostname)), d.id
             limit ${options.limit} offset ${options.offset}`,
      ),
      queryRows<{ n: Num }>(db, sql`select count(*) as n from ${devices} d where ${where}`),
    ]);
    return {
      rows: await findPrepatchByIds(
        db,
        zoneId,
        ids.map((r) => Number(r.id)),
      ),
      size: num(count?.n),
    };
  }
  const [rows, [count]] = await Promise.all([
    queryRows<RawPrepatch>(
      db,
      sql`with pd as (${perDevice(zoneId, f, options.now)})
          select ${PREPATCH_COLUMNS}
            from pd join ${devices} d on d.id = pd.device_id join ${serverGroups} g on g.id = d.group_id
           order by ${prepatchOrder(options.sort)}
           limit ${options.limit} offset ${options.offset}`,
    ),
    queryRows<{ n: Num }>(db, sql`select count(*) as n from (${perDevice(zoneId, f, options.now)}) pd`),
  ]);
  return { rows: rows.map(toPrepatch), size: num(count?.n) };
}

/** Every matching device's id in the table's order (the CSV export then reads them page by page). */
export async function findPrepatchIds(
  db: Db,
  zoneId: number,
  f: PrepatchFilter,
  options: { sort: PrepatchSort; now: Date },
): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with pd as (${perDevice(zoneId, f, options.now)})
        select d.id from pd join ${devices} d on d.id = pd.device_id
         order by ${prepatchOrder(options.sort)}`,
  );
  return rows.map((r) => r.id);
}

/** The prepatch rows of these devices of the zone, in the order of `ids`. */
export async function findPrepatchByIds(db: Db, zoneId: number, ids: number[]): Promise<PrepatchRow[]> {
  if (!ids.length) return [];
  const rows = await queryRows<RawPrepatch>(
    db,
    sql`with pd as (
          select p.device_id,
                 count(*) as pending,
                 count(*) filter (where p.severity = 'critical') as critical,
                 count(*) filter (where p.severity = 'high') as high,
                 count(*) filter (where p.severity = 'medium') as medium,
                 count(*) filter (where p.severity = 'low') as low,
                 count(*) filter (where p.severity not in ('critical', 'high', 'medium', 'low')) as other,
                 min(p.published_at) as oldest
            from ${devicePatches} p
           where p.device_id in (${sql.join(
             ids.map((id) => sql`${id}`),
             sql`, `,
           )})
           group by p.device_id
        )
        select ${PREPATCH_COLUMNS}
          from pd join ${devices} d on d.id = pd.device_id join ${serverGroups} g on g.id = d.group_id
         where ${LIVE(zoneId)}`,
  );
  const byId = new Map(rows.map((r) => [r.id, toPrepatch(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

// ---------------------------------------------------------------- needs attention

export type NeedsAttentionFilter = { compliance?: 'pending' | 'needs_attention'; search?: string };
export type NeedsAttentionSort = {
  field: 'name' | 'compliance' | 'pending_patches' | 'last_seen_at';
  dir: 'asc' | 'desc';
};

export type NeedsAttentionRow = {
  id: number;
  name: string;
  hostname: string;
  osFamily: OsFamily;
  osName: string;
  groupId: number;
  groupName: string;
  compliance: Compliance;
  complianceReason: string;
  pendingPatches: number;
  needsReboot: boolean;
  lastSeenAt: Date | null;
};

function needsAttentionWhere(zoneId: number, f: NeedsAttentionFilter): SQL {
  const state = f.compliance ? sql`d.compliance = ${f.compliance}` : sql`d.compliance <> 'compliant'`;
  return sql`${LIVE(zoneId)} and ${state}${searchSql(f.search)}`;
}

const NEEDS_ATTENTION_ORDER: Record<NeedsAttentionSort['field'], SQL> = {
  name: sql`lower(coalesce(d.custom_name, d.hostname))`,
  // needs_attention sorts after pending ascending, first descending: the worse state first.
  compliance: sql`(d.compliance = 'needs_attention')`,
  pending_patches: sql`d.pending_patches`,
  last_seen_at: sql`pr.last_seen_at`,
};

const NEEDS_ATTENTION_COLUMNS = sql`d.id, coalesce(d.custom_name, d.hostname) as name, d.hostname,
       d.os_family as "osFamily", d.os_name as "osName", d.group_id as "groupId", g.name as "groupName",
       d.compliance, d.compliance_reason as "complianceReason", d.pending_patches as "pendingPatches",
       d.needs_reboot as "needsReboot", pr.last_seen_at as "lastSeenAt"`;
const NEEDS_ATTENTION_JOINS = sql`join ${serverGroups} g on g.id = d.group_id
       left join ${devicePresence} pr on pr.device_id = d.id`;

type RawNeedsAttention = Omit<NeedsAttentionRow, 'lastSeenAt'> & { lastSeenAt: string | Date | null };
const toNeedsAttention = (r: RawNeedsAttention): NeedsAttentionRow => ({
  ...r,
  lastSeenAt: r.lastSeenAt === null ? null : new Date(r.lastSeenAt),
});

function needsAttentionOrder(sort: NeedsAttentionSort): SQL {
  const dir = sort.dir === 'asc' ? sql`asc` : sql`desc`;
  return sql`${NEEDS_ATTENTION_ORDER[sort.field]} ${dir} nulls last, lower(coalesce(d.custom_name, d.hostname)), d.id`;
}

/** A page of the zone's devices that are not compliant (or of one state), and how many there are. */
export async function findNonCompliantDevices(
  db: Db,
  zoneId: number,
  f: NeedsAttentionFilter,
  options: { sort: NeedsAttentionSort; offset: number; limit: number },
): Promise<{ rows: NeedsAttentionRow[]; size: number }> {
  const where = needsAttentionWhere(zoneId, f);
  const [rows, [count]] = await Promise.all([
    queryRows<RawNeedsAttention>(
      db,
      sql`select ${NEEDS_ATTENTION_COLUMNS} from ${devices} d ${NEEDS_ATTENTION_JOINS}
           where ${where}
           order by ${needsAttentionOrder(options.sort)}
           limit ${options.limit} offset ${options.offset}`,
    ),
    queryRows<{ n: Num }>(db, sql`select count(*) as n from ${devices} d where ${where}`),
  ]);
  return { rows: rows.map(toNeedsAttention), size: num(count?.n) };
}

/** Every matching device's id in the table's order. */
export async function findNonCompliantIds(
  db: Db,
  zoneId: number,
  f: NeedsAttentionFilter,
  sort: NeedsAttentionSort,
): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select d.id from ${devices} d left join ${devicePresence} pr on pr.device_id = d.id
         where ${needsAttentionWhere(zoneId, f)}
         order by ${needsAttentionOrder(sort)}`,
  );
  return rows.map((r) => r.id);
}

/** The needs-attention rows of these devices of the zone, in the order of `ids`. */
export async function findNonCompliantByIds(db: Db, zoneId: number, ids: number[]): Promise<NeedsAttentionRow[]> {
  if (!ids.length) return [];
  const rows = await queryRows<RawNeedsAttention>(
    db,
    sql`select ${NEEDS_ATTENTION_COLUMNS} from ${devices} d ${NEEDS_ATTENTION_JOINS}
         where ${LIVE(zoneId)} and d.id in (${sql.join(
           ids.map((id) => sql`${id}`),
           sql`, `,
         )})`,
  );
  const byId = new Map(rows.map((r) => [r.id, toNeedsAttention(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The zone's devices by compliance state (for the needs-attention summary). */
export async function countCompliance(db: Db, zoneId: number): Promise<Record<Compliance, number>> {
  const rows = await queryRows<{ compliance: Compliance; n: Num }>(
    db,
    sql`select d.compliance, count(*) as n from ${devices} d where ${LIVE(zoneId)} group by d.compliance`,
  );
  const out: Record<Compliance, number> = { compliant: 0, pending: 0, needs_attention: 0 };
  for (const r of rows) out[r.compliance] = num(r.n);
  return out;
}
