import { sql, type SQL } from 'drizzle-orm';
import type { OsFamily, PatchSeverity } from '@patchwell/core/agent/agent-protocol.schema';
import { deviceFiltersMatch, type PolicyTargets } from '@patchwell/core/policies/device-targeting';
import { deviceCompliance } from '@patchwell/core/devices/compliance';
import type { Compliance } from '@patchwell/core/devices/devices.schema';
import type { PatchSummary, PolicyStanding } from '@patchwell/core/policies/policy-compliance';
import type { PolicyResultStatus } from '@patchwell/core/policies/policy-runs.schema';
import type { Db } from '../../db/client';
import { devicePolicyStatus, policies, policyDeviceResults } from '../../db/policies.schema';
import { queryRows } from '../../db/raw';
import { devicePatches, devices } from '../../db/devices.schema';

/**
 * Devices' overall compliance, stored on `devices` (state and reason) so that the list,
 * its filter, the device's page and the dashboard read one column, and rewritten here
 * whenever what decides it changes: a policy status, the patches, a policy's groups, or the
 * device's group. The rule itself is core's `deviceCompliance`.
 */

type Exec = Pick<Db, 'execute'>;

/**
 * Devices recomputed per statement. On PGlite every other statement waits for the one running:
 * after a run over 100,000 devices, chunks of 5,000 (0.6-0.8 s a read) held the console's
 * requests that long each; 1,000 keeps each wait near a tenth of a second.
 */
const CHUNK = 1000;

/** A device's value of a filter field, `lower(btrim(…))`, with core's OS family aliases. */
function normalised(value: string, field: string): string {
  const v = `lower(btrim(${value}, E' \\t\\n\\r\\f\\v'))`;
  return `(case when ${field} = 'os_family' then (case ${v} when 'macos' then 'mac' when 'darwin' then 'mac' when 'osx' then 'mac' else ${v} end) else ${v} end)`;
}

/**
 * Core's `deviceFiltersMatch` (policies/device-targeting.ts) in SQL, for policy alias `p`
 * and device alias `d`: true when the policy's device filters are off, or every filter holds
 * (is, is not, contains, does not contain, over the device's values of the field). The
 * counts must agree with the engine, which targets through core; a test holds the two together.
 */
export function deviceFiltersHoldSql(p: string, d: string): string {
  const values = `(case f->>'field'
      when 'tag' then ${d}.tags
      when 'hostname' then array[${d}.hostname]
      when 'ip_addr' then ${d}.ip_addrs || ${d}.ip_addrs_private
      when 'os_family' then array[${d}.os_family]
      when 'os_version' then array[${d}.os_version]
      else array[]::text[] end)`;
  const field = `(f->>'field')`;
  const pairs = `from unnest(${values}) h, jsonb_array_elements_text(f->'value') w`;
  const equal = `exists (select 1 ${pairs} where ${normalised('h', field)} = ${normalised('w', field)})`;
  const contains = `exists (select 1 ${pairs} where strpos(${normalised('h', field)}, ${normalised('w', field)}) > 0)`;
  return `(coalesce((${p}.configuration->>'device_filters_enabled')::boolean, false) is false
    or not exists (select 1 from jsonb_array_elements(coalesce(${p}.configuration->'device_filters', '[]'::jsonb)) f
      where not (case f->>'op' when 'in' then ${equal} when 'not_in' then not ${equal}
                 when 'like_any' then ${contains} when 'not_like_any' then not ${contains} else false end)))`;
}

/** A status of a live device with a live policy that targets the device's group (filters aside). */
const IN_TARGET_GROUP =
  'p.id = ps.policy_id and p.deleted_at is null and d.id = ps.device_id and d.removed_at is null and d.group_id = any(p.server_groups)';

/**
 * Which of a device's policy statuses count: the policy is not deleted and still targets
 * the device (its group, and its device filters hold). The policy list's counts, the
 * device's policies and its overall state read the same ones, so the numbers agree.
 * `ps`, `p`, `d` alias device_policy_status, policies, devices.
 */
export const COUNTED_STANDING: SQL = sql.raw(`${IN_TARGET_GROUP} and ${deviceFiltersHoldSql('p', 'd')}`);

/** The number of a policy's devices with this status (for the list; `policies` is the outer row). */
export function standingCount(status: Compliance): SQL<number> {
  return sql<number>`(select count(*) from ${devicePolicyStatus} ps join ${devices} d on d.id = ps.device_id
     join ${policies} p on p.id = "policies"."id"
     where ps.policy_id = "policies"."id" and ps.status = ${status} and ${COUNTED_STANDING})`.mapWith(Number);
}

type JsonSummary = Record<string, { count: number | string; newestPublishedAt: string | null }>;

type StandingRow = {
  device_id: number;
  /** The policy's device filters are on; otherwise `configuration`, `tags` and the addresses are null. */
  filtered: boolean;
  /** The policy's configuration and the device's fields its filters read (core's rule runs on them here). */
  configuration: PolicyTargets['configuration'] | string;
  tags: string[];
  hostname: string;
  ip_addrs: string[];
  ip_addrs_private: string[];
  os_family: OsFamily;
  os_version: string;
  policy_name: string;
  status: Compliance;
  last_result_status: PolicyResultStatus | null;
  simulated: boolean | null;
  patch_count: number | null;
  evaluation_exit_code: number | null;
  /** The last result's patches the device still reports, by severity (patch policies, not up to date). */
  summary: JsonSummary | string | null;
};

const iso = (at: Date | string | null): string | null => (at === null ? null : new Date(at).toISOString());

/** Whether a policy (`p`) has its device filters on: only then do its statuses need core's rule. */
const FILTERED = `coalesce((p.configuration->>'device_filters_enabled')::boolean, false)`;

/** Whether the status's policy selects its device by the policy's device filters (core's rule, as the engine targets). */
function filtersHold(r: StandingRow): boolean {
  // Filters off: core's rule holds for every device (deviceFiltersMatch), so nothing was read for it.
  if (!r.filtered) return true;
  const configuration = typeof r.configuration === 'string' ? JSON.parse(r.configuration) : r.configuration;
  return deviceFiltersMatch(
    { server_groups: [], configuration },
    {
      server_group_id: 0,
      tags: r.tags,
      hostname: r.hostname,
      ip_addrs: r.ip_addrs,
      ip_addrs_private: r.ip_addrs_private,
      os_family: r.os_family,
      os_version: r.os_version,
    },
  );
}

/** A status's patches from {@link standingPatchesSql}'s JSON (undefined for null). */
export function summaryOf(json: unknown): PatchSummary | undefined {
  if (json === null || json === undefined) return undefined;
  const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as JsonSummary;
  const out: PatchSummary = {};
  for (const [severity, v] of Object.entries(parsed)) {
    out[severity as PatchSeverity] = { count: Number(v.count), newestPublishedAt: iso(v.newestPublishedAt) };
  }
  return out;
}

/** The newest publication date of a group of patches, or null when any of them has none. */
const NEWEST = `case when count(published_at) = count(*) then max(published_at) end`;

/**
 * A status's patches as JSON by severity (`{"high": {"count": 2, "newestPublishedAt": …}}`):
 * those of its last result the device still reports pending, for a patch policy it is not
 * up to date with; null otherwise. `ps`, `p`, `r` name device_policy_status, policies and
 * the last result.
 */
export function standingPatchesSql(ps: string, p: string, r: string): SQL {
  return sql.raw(`(select json_object_agg(x.severity, json_build_object('count', x.n, 'newestPublishedAt', x.newest))
      from (select dp.severity, count(*) as n, ${NEWEST} as newest
              from device_patches dp
             where ${p}.type = 'patch' and ${ps}.status <> 'compliant'
               and dp.device_id = ${ps}.device_id and dp.name = any(${r}.selected_patches)
             group by dp.severity) x)`);
}

/**
 * Recomputes and stores the compliance of these devices as of `now` (patch ages in the
 * reason); rows whose state, reason and rewording time did not change are not written.
 */
export async function refreshCompliance(db: Exec, deviceIds: readonly number[], now: Date): Promise<void> {
  const unique = [...new Set(deviceIds)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const ids = unique.slice(i, i + CHUNK);
    const idList = sql`${sql.param(ids)}::int[]`;
    const [standings, patches] = await Promise.all([
      queryRows<StandingRow>(
        db as Db,
        // The device filters are applied below with core's rule, not with COUNTED_STANDING's SQL:
        // planning that SQL cost several times what running this query does, once per status write.
        // The configuration and the device's fields only where the policy's device filters are on:
        // a 100,000-device run's statuses would each carry (and parse) the whole configuration.
        sql`select ps.device_id, ${sql.raw(FILTERED)} as filtered, case when ${sql.raw(FILTERED)} then p.configuration end as configuration,
                   case when ${sql.raw(FILTERED)} then d.tags end as tags, d.hostname,
                   case when ${sql.raw(FILTERED)} then d.ip_addrs end as ip_addrs,
                   case when ${sql.raw(FILTERED)} then d.ip_addrs_private end as ip_addrs_private, d.os_family,
                   d.os_version, p.name as policy_name, ps.status, ps.last_result_status, r.simulated,
                   cardinality(r.selected_patches) as patch_count, ps.evaluation_exit_code,
                   ${standingPatchesSql('ps', 'p', 'r')} as summary
              from ${devicePolicyStatus} ps join ${policies} p on p.id = ps.policy_id join ${devices} d on d.id = ps.device_id
              left join ${policyDeviceResults} r on r.id = ps.last_result_id
             where ps.device_id = any(${idList}) and ${sql.raw(IN_TARGET_GROUP)}`,
      ),
      queryRows<{ device_id: number; severity: PatchSeverity; n: number | string; newest: Date | string | null }>(
        db as Db,
        sql`select device_id, severity, count(*) as n, ${sql.raw(NEWEST)} as newest from ${devicePatches}
             where device_id = any(${idList}) group by device_id, severity`,
      ),
    ]);
    const byDevice = new Map<number, { standings: PolicyStanding[]; patches: PatchSummary }>(
      ids.map((id) => [id, { standings: [], patches: {} }]),
    );
    for (const r of standings) {
      if (!filtersHold(r)) continue;
      const summary = summaryOf(r.summary);
      byDevice.get(Number(r.device_id))?.standings.push({
        policyName: r.policy_name,
        status: r.status,
        lastResultStatus: r.last_result_status,
        simulated: r.simulated ?? false,
        patchCount: Number(r.patch_count ?? 0),
        ...(summary ? { patches: summary } : {}),
        evaluationExitCode: r.evaluation_exit_code === null ? null : Number(r.evaluation_exit_code),
      });
    }
    for (const r of patches) {
      const entry = byDevice.get(Number(r.device_id));
      if (entry) entry.patches[r.severity] = { count: Number(r.n), newestPublishedAt: iso(r.newest) };
    }
    const values = [...byDevice].map(([id, input]) => {
      const { state, reason, reasonChangesAt } = deviceCompliance({ ...input, now });
      return { id, compliance: state, reason, changes_at: reasonChangesAt };
    });
    await db.execute(sql`
      update ${devices} d set compliance = v.compliance, compliance_reason = v.reason,
             compliance_reason_changes_at = v.changes_at
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id int, compliance text, reason text, changes_at timestamptz)
       where d.id = v.id and (d.compliance <> v.compliance or d.compliance_reason <> v.reason
             or d.compliance_reason_changes_at is distinct from v.changes_at)`);
  }
}

/** Recomputes the compliance of the zone's live devices in these groups (a policy's targets changed). */
export async function refreshGroupsCompliance(
  db: Exec,
  zoneId: number,
  groupIds: readonly number[],
  now: Date,
): Promise<void> {
  if (!groupIds.length) return;
  const rows = await queryRows<{ id: number }>(
    db as Db,
    sql`select id from ${devices} where organization_id = ${zoneId} and removed_at is null
          and group_id = any(${sql.param([...new Set(groupIds)])}::int[])`,
  );
  await refreshCompliance(
    db,
    rows.map((r) => Number(r.id)),
    now,
  );
}

/** Recomputes the compliance of the devices that have a status with this policy (it was deleted or disabled). */
export async function refreshPolicyDevicesCompliance(db: Exec, policyId: number, now: Date): Promise<void> {
  const rows = await queryRows<{ id: number }>(
    db as Db,
    sql`select device_id as id from ${devicePolicyStatus} where policy_id = ${policyId}`,
  );
  await refreshCompliance(
    db,
    rows.map((r) => Number(r.id)),
    now,
  );
}

/** Recomputes, `CHUNK` at a time, the devices `select` finds (an id query over a partial index); returns how many. */
async function refreshWhere(db: Exec, select: SQL, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await queryRows<{ id: number }>(db as Db, sql`${select} order by id limit ${CHUNK}`);
    if (!rows.length) return total;
    await refreshCompliance(
      db,
      rows.map((r) => Number(r.id)),
      now,
    );
    total += rows.length;
    if (rows.length < CHUNK) return total;
  }
}

/**
 * Computes the compliance of live devices that never had it computed by this rule (an empty
 * reason: rows from before it, or enrolled without an inventory yet). Run at every start;
 * it reads the partial index `devices_compliance_unset_idx`, which holds only those rows, so
 * a start with every reason set costs one index probe, not a scan of the devices.
 */
export function backfillCompliance(db: Exec, now: Date): Promise<number> {
  return refreshWhere(db, WITHOUT_COMPLIANCE, now);
}

/** The backfill's query: its predicate is the partial index's, word for word. */
export const WITHOUT_COMPLIANCE: SQL = sql`select id from ${devices} where compliance_reason = '' and removed_at is null`;

/**
 * Rewords the reasons whose patches aged into the next bucket since they were written
 * ("older than 15 days" becomes "older than 30 days"), through `devices_reason_changes_idx`.
 */
export function rewordAgedReasons(db: Exec, now: Date): Promise<number> {
  return refreshWhere(
    db,
    sql`select id from ${devices} where compliance_reason_changes_at <= ${now.toISOString()}::timestamptz and removed_at is null`,
    now,
  );
}
