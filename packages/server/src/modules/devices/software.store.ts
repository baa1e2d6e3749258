import { sql, type SQL } from 'drizzle-orm';
import type { OsFamily, PatchSeverity } from '@patchwell/core/agent/agent-protocol.schema';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/raw';
import { devicePatches, deviceSoftware, devices } from '../../db/devices.schema';
import { likeEscape } from './devices.store';

export type SoftwareAggregate = {
  name: string;
  osFamily: OsFamily;
  installedCount: number;
  versions: string[];
  needsUpdateCount: number;
  severity: PatchSeverity | null;
  cves: string[];
};

// Highest first; `unknown` ranks above `none` (an unrated fix is still a fix).
const SEVERITY_RANK = sql`case p.severity when 'critical' then 5 when 'high' then 4 when 'medium' then 3 when 'low' then 2 when 'unknown' then 1 else 0 end`;
const RANK_NAME = (rank: SQL) =>
  sql`case ${rank} when 5 then 'critical' when 4 then 'high' when 3 then 'medium' when 2 then 'low' when 1 then 'unknown' when 0 then 'none' end`;

/**
 * The zone's software aggregated by package and OS family: devices having it installed,
 * installed versions, devices with an update for it, the update's highest severity and CVEs.
 * Packages that are only pending (a new KB) are included with no installed devices.
 */
export async function findZoneSoftware(
  db: Db,
  zoneId: number,
  options: {
    search?: string;
    osFamily?: OsFamily;
    severity?: PatchSeverity;
    needsUpdate?: boolean;
    offset: number;
    limit: number;
  },
): Promise<{ rows: SoftwareAggregate[]; size: number }> {
  const deviceWhere = sql`d.organization_id = ${zoneId} and d.removed_at is null${
    options.osFamily ? sql` and d.os_family = ${options.osFamily}` : sql``
  }`;
  const search = options.search?.trim() ? `%${likeEscape(options.search.trim())}%` : null;
  const nameWhere = (col: SQL) => (search ? sql` and ${col} ilike ${search}` : sql``);
  const base = sql`
    with sw as (
      select s.name, d.os_family, count(distinct s.device_id)::int as installed_count,
             array_agg(distinct s.version order by s.version) as versions
        from ${deviceSoftware} s join ${devices} d on d.id = s.device_id
       where ${deviceWhere}${nameWhere(sql`s.name`)}
       group by s.name, d.os_family
    ), pt as (
      select p.name, d.os_family, count(distinct p.device_id)::int as needs_update_count,
             max(${SEVERITY_RANK}) as rank,
             coalesce(array_agg(distinct c) filter (where c is not null), '{}') as cves
        from ${devicePatches} p join ${devices} d on d.id = p.device_id
        left join lateral unnest(p.cves) c on true
       where ${deviceWhere}${nameWhere(sql`p.name`)}
       group by p.name, d.os_family
    )
    select coalesce(sw.name, pt.name) as name, coalesce(sw.os_family, pt.os_family) as os_family,
           coalesce(sw.installed_count, 0) as installed_count, coalesce(sw.versions, '{}') as versions,
           coalesce(pt.needs_update_count, 0) as needs_update_count, ${RANK_NAME(sql`pt.rank`)} as severity,
           coalesce(pt.cves, '{}') as cves
      from sw full join pt on pt.name = sw.name and pt.os_family = sw.os_family`;
  const conditions: SQL[] = [];
  if (options.severity) conditions.push(sql`x.severity = ${options.severity}`);
  if (options.needsUpdate === true) conditions.push(sql`x.needs_update_count > 0`);
  if (options.needsUpdate === false) conditions.push(sql`x.needs_update_count = 0`);
  const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const [page, total] = await Promise.all([
    queryRows<Record<string, unknown>>(
      db,
      sql`select * from (${base}) x ${where} order by lower(x.name), x.os_family limit ${options.limit} offset ${options.offset}`,
    ),
    queryRows<{ n: string | number }>(db, sql`select count(*) as n from (${base}) x ${where}`),
  ]);
  return {
    rows: page.map((r) => ({
      name: String(r.name),
      osFamily: r.os_family as OsFamily,
      installedCount: Number(r.installed_count),
      versions: (r.versions as string[]) ?? [],
      needsUpdateCount: Number(r.needs_update_count),
      severity: (r.severity as PatchSeverity | null) ?? null,
      cves: ((r.cves as string[]) ?? []).sort(),
    })),
    size: Number(total[0]?.n ?? 0),
  };
}
