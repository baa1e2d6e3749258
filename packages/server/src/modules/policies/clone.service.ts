import { POLICY_NAME_MAX_LENGTH, type ClonePolicyBody, type CloneJob } from '@patchwell/core/policies/policies.schema';
import { notFound, validationError } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { copyInstallerToZone, findZoneInstaller } from '../installers/installers.service';
import { requireZone } from '../zones/zone-access.service';
import type { PoliciesCtx } from './policies.context';
import {
  findCloneJob,
  findZonesByUuid,
  insertCloneJob,
  insertPolicy,
  updateCloneJob,
  type CloneJobRow,
  type PolicyRow,
} from './policies.store';
import { logActivity, POLICY_FEATURE, POLICY_RESOURCE, requirePolicy } from './policy-access';
import { requireFeature } from '../zones/entitlements.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toJob(row: CloneJobRow): CloneJob {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    policy_name: row.policyName,
    policy_type_name: row.policyType,
    data: row.copies,
    error: row.error,
  };
}

/**
 * `POST /api/policies/{id}/clone` (read of the policy, create of its type in every target
 * zone): starts a job copying it into the target zones (default its own). Copies start
 * inactive and need configuration; groups are kept only in the policy's own zone (other
 * zones have other groups); an uploaded installer is copied into each other zone. The job
 * runs on this node; its progress (per policy and per installer copied) is in the database.
 */
export async function clonePolicy(
  ctx: PoliciesCtx,
  authz: Authz,
  o: number | undefined,
  id: number,
  body: ClonePolicyBody,
): Promise<CloneJob> {
  const { zone, policy } = await requirePolicy(ctx, authz, o, id, 'read');
  const targets = body.target_zone_ids ? await findZonesByUuid(ctx.db, [...new Set(body.target_zone_ids)]) : [zone];
  if (body.target_zone_ids && targets.length !== new Set(body.target_zone_ids).size) {
    throw validationError({ target_zone_ids: ['This zone does not exist.'] });
  }
  for (const target of targets) {
    const allowed = await requireZone(ctx, authz, target.id, POLICY_RESOURCE[policy.type], 'create');
    requireFeature(ctx, allowed, POLICY_FEATURE[policy.type]);
  }
  const name = (body.name ?? `Clone of ${policy.name}`).slice(0, POLICY_NAME_MAX_LENGTH);
  const job = await insertCloneJob(ctx.db, {
    organizationId: zone.id,
    sourcePolicyId: policy.id,
    policyName: name,
    policyType: policy.type,
    targetZoneIds: targets.map((t) => t.id),
    createdBy: authz.userId,
    createdAt: ctx.clock.now(),
  });
  await logActivity(
    ctx,
    authz,
    zone.id,
    'policy.clone',
    { type: 'policy', id: policy.id, name: policy.name },
    {
      job_id: job.id,
      target_zone_ids: job.targetZoneIds,
    },
  );
  void runCloneJob(ctx, authz.userId, job, policy, targets).catch((err: unknown) =>
    ctx.logger.warn({ err, job: job.id }, 'policy clone failed'),
  );
  return toJob(job);
}

/** Copies the policy zone by zone, writing progress after each. */
async function runCloneJob(
  ctx: PoliciesCtx,
  userId: number,
  job: CloneJobRow,
  policy: PolicyRow,
  targets: { id: number; uuid: string }[],
): Promise<void> {
  await updateCloneJob(ctx.db, job.id, { status: 'running' });
  const copies: CloneJobRow['copies'] = [];
  // An uploaded installer belongs to its zone: the same zone's copy references it, another
  // zone gets its own copy of it (a file of up to 512 MiB), which counts as a step of the job.
  const installerRef = (policy.configuration as { installer?: { id?: string } | null }).installer;
  const installer = installerRef?.id ? await findZoneInstaller(ctx, policy.organizationId, installerRef.id) : undefined;
  const fileSteps = installer ? targets.filter((t) => t.id !== policy.organizationId).length : 0;
  const steps = targets.length + fileSteps;
  let done = 0;
  const progress = () => Math.floor((++done * 100) / steps);
  try {
    for (const target of targets) {
      let configuration = policy.configuration;
      if (installer && target.id !== policy.organizationId) {
        const copied = await copyInstallerToZone(ctx, installer, target.id, userId);
        configuration = { ...configuration, installer: { ...installerRef, id: copied.id } };
        await updateCloneJob(ctx.db, job.id, { progress: progress() });
      }
      const now = ctx.clock.now();
      const copy = await insertPolicy(ctx.db, {
        organizationId: target.id,
        name: job.policyName,
        type: policy.type,
        status: 'inactive',
        needsConfiguration: true,
        configuration,
        scheduleDays: policy.scheduleDays,
        scheduleWeeksOfMonth: policy.scheduleWeeksOfMonth,
        scheduleMonths: policy.scheduleMonths,
        scheduleTime: policy.scheduleTime,
        scheduledTimezone: policy.scheduledTimezone,
        useScheduledTimezone: policy.useScheduledTimezone,
        serverGroups: target.id === policy.organizationId ? policy.serverGroups : [],
        notes: policy.notes,
        communityWorkletId: policy.communityWorkletId,
        createdBy: userId,
        createdAt: now,
        updatedAt: now,
      });
      copies.push({ policy_id: copy.id, zone_id: target.uuid, org_id: target.id });
      await updateCloneJob(ctx.db, job.id, { copies, progress: progress() });
    }
    await updateCloneJob(ctx.db, job.id, { status: 'completed', progress: 100, finishedAt: ctx.clock.now() });
  } catch (err) {
    await updateCloneJob(ctx.db, job.id, {
      status: 'error',
      error: 'The policy could not be copied.',
      finishedAt: ctx.clock.now(),
    });
    throw err;
  }
}

/** `GET /api/policies/clone-jobs/{jobId}` (read): the job's progress and the copies made. */
export async function getCloneJob(ctx: PoliciesCtx, authz: Authz, o: number | undefined, jobId: string) {
  const zone = await requireZone(ctx, authz, o, 'PatchPolicy', 'read');
  const job = UUID.test(jobId) ? await findCloneJob(ctx.db, zone.id, jobId) : undefined;
  if (!job) throw notFound();
  return toJob(job);
}
