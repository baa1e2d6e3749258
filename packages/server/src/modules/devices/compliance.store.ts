import { sql, type SQL } from 'drizzle-orm';
import type { PatchSeverity } from '@patchwell/core/agent/agent-protocol.schema';
import { deviceCompliance, type PatchCounts } from '@patchwell/core/devices/compliance';
import type { Compliance } from '@patchwell/core/devices/devices.schema';
import type { PolicyStanding } from '@patchwell/core/policies/policy-compliance';
import type { PolicyResultStatus } from '@patchwell/core/policies/policy-runs.schema';
import type { Db } from '../../db/client';
import { devicePolicyStatus, policies, policyDeviceResults } from '../../db/policies.schema';
import { queryRows } from '../../db/raw';
import { devicePatches, devices } from '../../db/schema';

/**
 * Devices' overall compliance, stored on `devices` (state and reason) so that the list,
 * its filter, the device's page and the dashboard read one column, and rewritten here
 * whenever what decides it changes: a policy status, the patches, a policy's groups, or the
 * device's group. The rule itself is core's `deviceCompliance`.
 */

type Exec = Pick<Db, 'execute'>;

const CHUNK = 5000;

/**
 * Which of a device's policy statuses count: the policy is not deleted and still targets
 * the device's group. The policy list's counts and the device's policies read the same
 * ones, so the numbers agree. `ps`, `p`, `d` alias device_policy_status, policies, devices.
 */
export const COUNTED_STANDING: SQL = sql.raw(
  `p.id = ps.policy_id and p.deleted_at is null and d.id = ps.device_id and d.removed_at is null and d.group_id = any(p.server_groups)`,
);

/** The number of a policy's devices with this status (for the list; `policies` is the outer row). */
export function standingCount(status: Compliance): SQL<number> {
  return sql<number>`(select count(*) from ${devicePolicyStatus} ps join ${devices} d on d.id = ps.device_id
     join ${policies} p on p.id = "policies"."id"
     where ps.policy_id = "policies"."id" and ps.status = ${status} and ${COUNTED_STANDING})`.mapWith(Number);
}

type StandingRow = {
  device_id: number;
  policy_name: string;
  status: Compliance;
  last_result_status: PolicyResultStatus | null;
  simulated: boolean | null;
  patch_count: number | null;
  evaluation_exit_code: number | null;
};

/** Recomputes and stores the compliance of these devices; rows whose state and reason did not change are not written. */
export async function refreshCompliance(db: Exec, deviceIds: readonly number[]): Promise<void> {
  const unique = [...new Set(deviceIds)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const ids = unique.slice(i, i + CHUNK);
    const idList = sql`${sql.param(ids)}::int[]`;
    const [standings, patches] = await Promise.all([
      queryRows<StandingRow>(
        db as Db,
        sql`select ps.device_id, p.name as policy_name, ps.status, ps.last_result_status, r.simulated,
                   cardinality(r.selected_patches) as patch_count, ps.evaluation_exit_code
              from ${devicePolicyStatus} ps join ${policies} p on p.id = ps.policy_id join ${devices} d on d.id = ps.device_id
              left join ${policyDeviceResults} r on r.id = ps.last_result_id
             where ps.device_id = any(${idList}) and ${COUNTED_STANDING}`,
      ),
      queryRows<{ device_id: number; severity: PatchSeverity; n: number | string }>(
        db as Db,
        sql`select device_id, severity, count(*) as n from ${devicePatches}
             where device_id = any(${idList}) group by device_id, severity`,
      ),
    ]);
    const byDevice = new Map<number, { standings: PolicyStanding[]; patches: PatchCounts }>(
      ids.map((id) => [id, { standings: [], patches: {} }]),
    );
    for (const r of standings) {
      byDevice.get(Number(r.device_id))?.standings.push({
        policyName: r.policy_name,
        status: r.status,
        lastResultStatus: r.last_result_status,
        simulated: r.simulated ?? false,
        patchCount: Number(r.patch_count ?? 0),
        evaluationExitCode: r.evaluation_exit_code === null ? null : Number(r.evaluation_exit_code),
      });
    }
    for (const r of patches) {
      const entry = byDevice.get(Number(r.device_id));
      if (entry) entry.patches[r.severity] = Number(r.n);
    }
    const values = [...byDevice].map(([id, input]) => {
      const { state, reason } = deviceCompliance(input);
      return { id, compliance: state, reason };
    });
    await db.execute(sql`
      update ${devices} d set compliance = v.compliance, compliance_reason = v.reason
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id int, compliance text, reason text)
       where d.id = v.id and (d.compliance <> v.compliance or d.compliance_reason <> v.reason)`);
  }
}

/** Recomputes the compliance of the zone's live devices in these groups (a policy's targets changed). */
export async function refreshGroupsCompliance(db: Exec, zoneId: number, groupIds: readonly number[]): Promise<void> {
  if (!groupIds.length) return;
  const rows = await queryRows<{ id: number }>(
    db as Db,
    sql`select id from ${devices} where organization_id = ${zoneId} and removed_at is null
          and group_id = any(${sql.param([...new Set(groupIds)])}::int[])`,
  );
  await refreshCompliance(
    db,
    rows.map((r) => Number(r.id)),
  );
}

/** Recomputes the compliance of the devices that have a status with this policy (it was deleted or disabled). */
export async function refreshPolicyDevicesCompliance(db: Exec, policyId: number): Promise<void> {
  const rows = await queryRows<{ id: number }>(
    db as Db,
    sql`select device_id as id from ${devicePolicyStatus} where policy_id = ${policyId}`,
  );
  await refreshCompliance(
    db,
    rows.map((r) => Number(r.id)),
  );
}

/**
 * Computes the compliance of live devices that never had it computed by this rule (an empty
 * reason: rows from before it). Run at start; afterwards every device has a reason, and
 * this finds none.
 */
export async function backfillCompliance(db: Exec): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await queryRows<{ id: number }>(
      db as Db,
      sql`select id from ${devices} where compliance_reason = '' and removed_at is null order by id limit ${CHUNK}`,
    );
    if (!rows.length) return total;
    await refreshCompliance(
      db,
      rows.map((r) => Number(r.id)),
    );
    total += rows.length;
  }
}
