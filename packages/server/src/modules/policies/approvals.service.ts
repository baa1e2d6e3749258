import type { OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import type { Approval, ApprovalList, ListApprovalsQuery } from '@patchwell/core/policies/policy-runs.schema';
import { notFound } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { requireZone } from '../zones/zone-access.service';
import type { PoliciesCtx } from './policies.context';
import { findPolicies } from './policies.store';
import { logActivity, requirePolicyZone } from './policy-access';
import { decideApproval, findApproval, findApprovals, type ApprovalRow } from './runs.store';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * The family's Approval shape. A patch is one row per policy, name and version here, so
 * its `software.id` and `software_version_id` are the approval's own id.
 */
function toApproval(row: ApprovalRow & { policyName: string }): Approval {
  return {
    id: row.id,
    manual_approval: row.status === 'pending' ? null : row.status === 'approved',
    manual_approval_time: iso(row.decidedAt),
    status: row.status,
    software: {
      id: row.id,
      software_version_id: row.id,
      display_name: row.patchName,
      version: row.patchVersion,
      os_family: row.osFamily as OsFamily,
      cves: row.cves,
    },
    policy: { id: row.policyId, name: row.policyName },
    server_count: row.deviceCount,
  };
}

/** `GET /api/approvals` (PatchPolicy.read): patches of manual-approval policies, by policy and name. */
export async function listApprovals(ctx: PoliciesCtx, authz: Authz, query: ListApprovalsQuery): Promise<ApprovalList> {
  const { zone } = await requirePolicyZone(ctx, authz, query.o, 'read');
  const manual = await manualPolicies(ctx, zone.id);
  const { rows, size } = await findApprovals(ctx.db, zone.id, {
    status: query.status,
    policyId: query.policy,
    policyIds: manual.map((p) => p.id),
    offset: query.page * query.limit,
    limit: query.limit,
  });
  return { results: rows.map(toApproval), size };
}

async function manualPolicies(ctx: PoliciesCtx, zoneId: number) {
  const { rows } = await findPolicies(
    ctx.db,
    zoneId,
    { types: ['patch'] },
    { sort: { field: 'name', dir: 'asc' }, offset: 0, limit: 10_000 },
  );
  return rows.filter((p) => p.configuration.patch_rule === 'manual');
}

/** `GET /api/policy-manual-approval` (PatchPolicy.read): the patches waiting, per manual-approval policy. */
export async function listManualApprovals(ctx: PoliciesCtx, authz: Authz, o: number | undefined) {
  const { zone } = await requirePolicyZone(ctx, authz, o, 'read');
  const manual = await manualPolicies(ctx, zone.id);
  const { rows } = await findApprovals(ctx.db, zone.id, {
    status: 'pending',
    policyIds: manual.map((p) => p.id),
    offset: 0,
    limit: 10_000,
  });
  const data = manual.map((p) => ({
    policy_id: p.id,
    policy_name: p.name,
    pending: rows.filter((r) => r.policyId === p.id).map(toApproval),
  }));
  return { data, size: data.length };
}

/**
 * `PUT /api/approvals/{id}` (Approval.create): approve or reject a patch; an approved one
 * installs at the policy's next run.
 */
export async function decide(
  ctx: PoliciesCtx,
  authz: Authz,
  o: number | undefined,
  id: number,
  manualApproval: boolean,
): Promise<Approval> {
  const status = manualApproval ? 'approved' : 'rejected';
  const zone = await requireZone(ctx, authz, o, 'Approval', 'create');
  const approval = await findApproval(ctx.db, zone.id, id);
  if (!approval) throw notFound();
  const row = await decideApproval(ctx.db, approval.id, {
    status,
    decidedBy: authz.userId,
    decidedAt: ctx.clock.now(),
  });
  await logActivity(
    ctx,
    authz,
    zone.id,
    `approval.${status}`,
    { type: 'approval', id: row.id, name: `${row.patchName} ${row.patchVersion}` },
    {
      policy_id: row.policyId,
      patch_name: row.patchName,
      patch_version: row.patchVersion,
    },
  );
  const [withName] = (
    await findApprovals(ctx.db, zone.id, { policyIds: [row.policyId], offset: 0, limit: 10_000 })
  ).rows.filter((r) => r.id === row.id);
  return toApproval(withName ?? { ...row, policyName: '' });
}
