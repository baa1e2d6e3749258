import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  policies,
  policyDeviceResults,
  policyRuns,
  type PolicyStatus,
  type PolicyType,
} from '../../db/policies.schema';
import { queryRows } from '../../db/raw';
import { likeEscape } from '../devices/devices.store';

/**
 * Policy results' SQL: the zone's (not deleted) policies with runs started since `since`,
 * their runs and their device results counted by outcome.
 */

const iso = (d: Date) => d.toISOString();
type Num = string | number;
const num = (v: Num | null | undefined) => Number(v ?? 0);

export type PolicyResultsRow = {
  policyId: number;
  policyUuid: string;
  name: string;
  type: PolicyType;
  status: PolicyStatus;
  runs: number;
  lastRunAt: Date | null;
  devices: number;
  success: number;
  failed: number;
  pending: number;
  canceled: number;
};

export type PolicyResultsSort = { field: 'name' | 'last_run_at' | 'runs' | 'failed'; dir: 'asc' | 'desc' };

/** Per policy: its runs since `since` and their results by outcome. */
function summarySql(zoneId: number, since: Date, where: SQL): SQL {
  return sql`with runs as (
               select r.policy_id, count(*) as runs, max(r.created_at) as last_run_at
                 from ${policyRuns} r
                where r.organization_id = ${zoneId} and r.created_at >= ${iso(since)}::timestamptz
                group by r.policy_id
             ),
             results as (
               select x.policy_id,
                      count(distinct x.device_id) as devices,
                      count(*) filter (where x.status = 'success') as success,
                      count(*) filter (where x.status in ('error', 'timed_out')) as failed,
                      count(*) filter (where x.status in ('pending', 'in_progress')) as pending,
                      count(*) filter (where x.status = 'canceled') as canceled
                 from ${policyDeviceResults} x join ${policyRuns} r on r.id = x.run_id
                where r.organization_id = ${zoneId} and r.created_at >= ${iso(since)}::timestamptz
                group by x.policy_id
             )
             select p.id as "policyId", p.uuid as "policyUuid", p.name, p.type, p.status,
                    coalesce(runs.runs, 0) as runs, runs.last_run_at as "lastRunAt",
                    coalesce(results.devices, 0) as devices, coalesce(results.success, 0) as success,
                    coalesce(results.failed, 0) as failed, coalesce(results.pending, 0) as pending,
                    coalesce(results.canceled, 0) as canceled
               from ${policies} p
               left join runs on runs.policy_id = p.id
               left join results on results.policy_id = p.id
              where p.organization_id = ${zoneId} and p.deleted_at is null and ${where}`;
}

type RawRow = Omit<PolicyResultsRow, 'runs' | 'devices' | 'success' | 'failed' | 'pending' | 'canceled' | 'lastRunAt'> &
  Record<'runs' | 'devices' | 'success' | 'failed' | 'pending' | 'canceled', Num> & { lastRunAt: string | Date | null };

const toRow = (r: RawRow): PolicyResultsRow => ({
  ...r,
  runs: num(r.runs),
  devices: num(r.devices),
  success: num(r.success),
  failed: num(r.failed),
  pending: num(r.pending),
  canceled: num(r.canceled),
  lastRunAt: r.lastRunAt === null ? null : new Date(r.lastRunAt),
});

const ORDER: Record<PolicyResultsSort['field'], string> = {
  name: 'lower(name)',
  last_run_at: '"lastRunAt"',
  runs: 'runs',
  failed: 'failed',
};

/** A page of the zone's policies that ran since `since`, and how many there are. */
export async function findPolicyResults(
  db: Db,
  zoneId: number,
  since: Date,
  options: { search?: string; sort: PolicyResultsSort; offset: number; limit: number },
): Promise<{ rows: PolicyResultsRow[]; size: number }> {
  const search = options.search?.trim();
  const where = search
    ? sql`runs.runs > 0 and lower(p.name) like ${`%${likeEscape(search.toLowerCase())}%`}`
    : sql`runs.runs > 0`;
  const dir = options.sort.dir === 'asc' ? 'asc' : 'desc';
  const rows = await queryRows<RawRow & { size: Num }>(
    db,
    sql`select s.*, count(*) over () as size from (${summarySql(zoneId, since, where)}) s
         order by ${sql.raw(`${ORDER[options.sort.field]} ${dir} nulls last`)}, lower(name), "policyId"
         limit ${options.limit} offset ${options.offset}`,
  );
  let size = num(rows[0]?.size);
  if (!rows.length && options.offset > 0) {
    const [count] = await queryRows<{ n: Num }>(
      db,
      sql`select count(*) as n from (${summarySql(zoneId, since, where)}) s`,
    );
    size = num(count?.n);
  }
  return { rows: rows.map(toRow), size };
}

/** One policy of the zone (not deleted) by its UUID, with its figures since `since` (zeros when it did not run). */
export async function findPolicyResult(
  db: Db,
  zoneId: number,
  policyUuid: string,
  since: Date,
): Promise<PolicyResultsRow | undefined> {
  const [row] = await queryRows<RawRow>(db, summarySql(zoneId, since, sql`p.uuid = ${policyUuid}::uuid`));
  return row && toRow(row);
}
