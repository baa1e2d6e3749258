import { and, eq, inArray, sql } from 'drizzle-orm';
import { devicePolicyStatus, policyApprovals } from '../db/policies.schema';
import { chunks, type PolicyRow, type Tx } from './engine.store';
import type { ApprovalNeed } from './plan-types';

/** SQL a run's planning reads and writes: approval decisions, worklet evaluations, approvals to ask for. */

/** The policy's decided approvals: each patch name and version with its status. */
export async function findApprovalDecisions(tx: Tx, policyId: number) {
  return tx
    .select({
      name: policyApprovals.patchName,
      version: policyApprovals.patchVersion,
      status: policyApprovals.status,
    })
    .from(policyApprovals)
    .where(eq(policyApprovals.policyId, policyId));
}

/** The last evaluation exit code of each of the devices against the worklet policy. */
export async function findEvaluationExitCodes(tx: Tx, policyId: number, deviceIds: number[]) {
  const out: { deviceId: number; exit: number | null }[] = [];
  for (const chunk of chunks(deviceIds, 5000)) {
    const rows = await tx
      .select({ deviceId: devicePolicyStatus.deviceId, exit: devicePolicyStatus.evaluationExitCode })
      .from(devicePolicyStatus)
      .where(and(eq(devicePolicyStatus.policyId, policyId), inArray(devicePolicyStatus.deviceId, chunk)));
    out.push(...rows);
  }
  return out;
}

/** Records the patches waiting for approval; a decided one keeps its decision. */
export async function upsertApprovals(tx: Tx, policy: PolicyRow, needs: ApprovalNeed[], now: Date) {
  for (const chunk of chunks(needs)) {
    await tx
      .insert(policyApprovals)
      .values(
        chunk.map((n) => ({
          organizationId: policy.organizationId,
          policyId: policy.id,
          patchName: n.name,
          patchVersion: n.version,
          severity: n.severity,
          osFamily: n.osFamily,
          cves: n.cves,
          deviceCount: n.devices,
          createdAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: [policyApprovals.policyId, policyApprovals.patchName, policyApprovals.patchVersion],
        set: { deviceCount: sql`excluded.device_count` },
      });
  }
}
