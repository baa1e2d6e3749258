import { policyStandingReason } from '@patchwell/core/policies/policy-compliance';
import { actionDeviceIds, type PolicyActionBody } from '@patchwell/core/policies/policies.schema';
import { DEVICE_POLICY_STATUS_CODES } from '@patchwell/core/policies/policy-runs.schema';
import { AppError, notFound } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { insertRun, lockPolicyRunStart } from '../../engine/engine.store';
import { findDevice } from '../devices/device-list.store';
import { findZoneDeviceIds } from '../devices/devices.store';
import { requireZone } from '../zones/zone-access.service';
import { requireFeature } from '../zones/entitlements.service';
import type { PoliciesCtx } from './policies.context';
import { logActivity, POLICY_FEATURE, requirePolicy } from './policy-access';
import {
  countResultsByStatus,
  findDevicePolicies,
  findResults,
  findRun,
  findRuns,
  findOpenRunOn,
  type ResultRow,
  type RunRow,
} from './runs.store';
import type { PolicyResultDetail, PolicyRunDetail } from '@patchwell/core/policies/policy-responses.schema';

/** Runs and results are kept for reports; the console lists those of the last 30 days (spec B section 9). */
export const RESULTS_DAYS = 30;

const iso = (d: Date | null) => d?.toISOString() ?? null;

const NO_RESULTS = { success: 0, in_progress: 0, error: 0, pending: 0, timed_out: 0, canceled: 0 };

export function toRun(row: RunRow, policyUuid: string, counts: Record<string, number> = {}): PolicyRunDetail {
  return {
    id: row.id,
    policy_id: row.policyId,
    policy_uuid: policyUuid,
    organization_id: row.organizationId,
    status: row.status,
    trigger: row.trigger,
    scheduled_for: iso(row.scheduledFor),
    created_by: row.createdBy,
    create_time: row.createdAt.toISOString(),
    finished_at: iso(row.finishedAt),
    device_count: Object.values(counts).reduce((a, b) => a + b, 0),
    results: { ...NO_RESULTS, ...counts },
    timezone: row.tzKey,
    queued_at: iso(row.queuedAt),
    error_message: row.errorMessage,
  };
}

export function toResult(row: ResultRow, serverName: string): PolicyResultDetail {
  const pkg = typeof row.args.package === 'string' ? [row.args.package] : [];
  return {
    id: row.id,
    run_id: row.runId,
    policy_id: row.policyId,
    server_id: row.deviceId,
    server_name: serverName,
    status: row.status,
    patches: row.selectedPatches.length ? row.selectedPatches : pkg,
    exit_code: row.exitCode,
    stdout_tail: row.stdoutTail,
    stderr_tail: row.stderrTail,
    create_time: row.createdAt.toISOString(),
    finished_at: iso(row.finishedAt),
    command_id: row.commandId,
    command_type: row.commandType,
    message: row.message,
    queued_at: iso(row.queuedAt),
    simulated: row.simulated,
  };
}

async function runsWithCounts(ctx: PoliciesCtx, rows: RunRow[], policyUuid: string) {
  const counts = await countResultsByStatus(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toRun(r, policyUuid, counts.get(r.id)));
}

/** `GET /api/policies/{id}/runs` (read of the policy's type): the last 30 days, newest first. */
export async function listRuns(
  ctx: PoliciesCtx,
  authz: Authz,
  query: { o: number | undefined; page: number; limit: number },
  id: number,
) {
  const { policy } = await requirePolicy(ctx, authz, query.o, id, 'read');
  const since = new Date(ctx.clock.now().getTime() - RESULTS_DAYS * 86_400_000);
  const { rows, size } = await findRuns(ctx.db, policy.id, {
    since,
    offset: query.page * query.limit,
    limit: query.limit,
  });
  return { data: await runsWithCounts(ctx, rows, policy.uuid), size };
}

/** `GET /api/policies/{id}/runs/{runId}/results`: per-device results with their output. */
export async function listResults(
  ctx: PoliciesCtx,
  authz: Authz,
  query: { o: number | undefined; page: number; limit: number; status?: string },
  id: number,
  runId: number,
) {
  const { policy } = await requirePolicy(ctx, authz, query.o, id, 'read');
  const run = await findRun(ctx.db, policy.id, runId);
  if (!run) throw notFound();
  const { rows, size } = await findResults(ctx.db, run.id, {
    status: query.status,
    offset: query.page * query.limit,
    limit: query.limit,
  });
  return { data: rows.map((r) => toResult(r, r.deviceName)), size };
}

/** `GET /api/policies/{id}/runs/{runId}`. */
export async function getRun(ctx: PoliciesCtx, authz: Authz, o: number | undefined, id: number, runId: number) {
  const { policy } = await requirePolicy(ctx, authz, o, id, 'read');
  const run = await findRun(ctx.db, policy.id, runId);
  if (!run) throw notFound();
  const [detail] = await runsWithCounts(ctx, [run], policy.uuid);
  return detail!;
}

/**
 * The permission check of {@link runPolicyNow} alone, for a route that may answer from an
 * earlier request (Idempotency-Key): a replay is still a decision on the caller's rights now.
 */
export async function requireRunPermission(ctx: PoliciesCtx, authz: Authz, o: number | undefined, id: number) {
  await requirePolicy(ctx, authz, o, id, 'execute');
}

/** 409 for a run start that would give devices a second open command of the policy. */
function alreadyRunning(runId: number): AppError {
  return new AppError('policies.run_open', { wording: { runId } });
}

/**
 * `POST /api/policies/{id}/action` (execute of the policy's type): a manual run on every
 * targeted device (`remediateAll`) or on one device of the zone (`remediateServer`),
 * dispatched at once; devices offline now receive it at their next check-in.
 * @throws AppError 409 `policies.run_open` while a run of the policy is open on these devices
 *   (not dispatched yet, or with commands pending or in progress on them); 403
 *   `plans.feature_unavailable` when the zone's plan no longer includes the policy's type.
 */
export async function runPolicyNow(
  ctx: PoliciesCtx,
  authz: Authz,
  o: number | undefined,
  id: number,
  body: PolicyActionBody,
): Promise<{ run: PolicyRunDetail }> {
  const { zone, policy } = await requirePolicy(ctx, authz, o, id, 'execute');
  // A policy saved under an earlier plan stays readable; running it needs its plan again.
  requireFeature(ctx, zone, POLICY_FEATURE[policy.type]);
  let deviceIds = actionDeviceIds(body);
  if (deviceIds) {
    deviceIds = await findZoneDeviceIds(ctx.db, zone.id, deviceIds);
    if (!deviceIds.length) throw notFound();
  }
  const run = await ctx.db.transaction(async (tx) => {
    await lockPolicyRunStart(tx, policy.id);
    const open = await findOpenRunOn(tx, policy.id, deviceIds);
    if (open !== null) throw alreadyRunning(open);
    return insertRun(tx, {
      policyId: policy.id,
      organizationId: zone.id,
      trigger: 'manual',
      deviceIds,
      createdBy: authz.userId,
      createdAt: ctx.clock.now(),
    });
  });
  await logActivity(
    ctx,
    authz,
    zone.id,
    `policy.${body.action}`,
    { type: 'policy', id: policy.id, name: policy.name },
    {
      run_id: run.id,
      ...(deviceIds ? { server_ids: deviceIds } : {}),
    },
  );
  await ctx.engine.dispatch(run.id);
  const fresh = (await findRun(ctx.db, policy.id, run.id)) ?? run;
  const [detail] = await runsWithCounts(ctx, [fresh], policy.uuid);
  return { run: detail! };
}

/** `GET /api/servers/{id}/policies` (Endpoint.read): the device's standing against each policy and the last result. */
export async function listDevicePolicies(ctx: PoliciesCtx, authz: Authz, o: number | undefined, deviceId: number) {
  const zone = await requireZone(ctx, authz, o, 'Endpoint', 'read');
  const device = await findDevice(ctx.db, zone.id, deviceId, ctx.clock.now());
  if (!device) throw notFound();
  const tz = device.timezone ?? 'UTC';
  const name = device.customName || device.hostname;
  const rows = await findDevicePolicies(ctx.db, zone.id, device.id, device.groupId, tz);
  const data = rows.map((r) => ({
    policy_id: r.policy.id,
    policy_name: r.policy.name,
    policy_type_name: r.policy.type,
    compliance: r.standing.status,
    status: DEVICE_POLICY_STATUS_CODES[r.standing.status],
    reason: policyStandingReason(
      {
        policyName: r.policy.name,
        status: r.standing.status,
        lastResultStatus: r.standing.lastResultStatus,
        simulated: r.result?.simulated ?? false,
        patchCount: r.result?.selectedPatches.length ?? 0,
        ...(r.patches ? { patches: r.patches } : {}),
        evaluationExitCode: r.standing.evaluationExitCode,
      },
      ctx.clock.now(),
    ),
    result: r.result ? toResult(r.result, name) : null,
    next_run_time: r.nextRun ? new Date(r.nextRun).toISOString() : null,
    evaluation_exit_code: r.standing.evaluationExitCode,
    last_run_at: iso(r.standing.lastRunAt),
  }));
  return { data, size: data.length };
}
