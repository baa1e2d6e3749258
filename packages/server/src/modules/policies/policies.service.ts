import type { DeviceFiltersPreviewBody } from '@patchwell/core/policies/device-filters.schema';
import {
  type CreatePolicyBody,
  type ListPoliciesQuery,
  type UpdatePolicyBody,
} from '@patchwell/core/policies/policies.schema';
import type { PolicyResponse } from '@patchwell/core/policies/policy-responses.schema';
import type { PolicyStats } from '@patchwell/core/policies/policy-runs.schema';
import { findWorkletByLegacyId } from '../worklets/worklet-catalog.loader';
import type { Authz } from '../../domain/authz';
import { validationError } from '../../domain/errors';
import { findCandidateDevices, replaceSlots, type Tx } from '../../engine/engine.store';
import { rebuildSlots } from '../../engine/slots';
import { matchesFilters } from '../../engine/targets';
import { refreshGroupsCompliance, refreshPolicyDevicesCompliance } from '../devices/compliance.store';
import { checkPolicyInstaller } from '../installers/installers.service';
import { requireZone } from '../zones/zone-access.service';
import { requireFeature } from '../zones/entitlements.service';
import type { PoliciesCtx } from './policies.context';
import {
  findPolicies,
  findPolicyListRow,
  findZoneGroupIds,
  lockZoneGroups,
  insertPolicy,
  policyStats,
  updatePolicy as storeUpdatePolicy,
  type PolicyListRow,
  type PolicyRow,
  type PolicySortField,
} from './policies.store';
import {
  changesOf,
  logActivity,
  POLICY_FEATURE,
  POLICY_RESOURCE,
  requirePolicy,
  requirePolicyZone,
} from './policy-access';

/** A policy in the family's shape, plus its devices' standing (core's response schema). */
export type PolicyWithCompliance = PolicyResponse;

export function toPolicy(row: PolicyListRow): PolicyWithCompliance {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    notes: row.notes,
    policy_type_name: row.type,
    organization_id: row.organizationId,
    status: row.status,
    configuration: row.configuration,
    schedule_days: row.scheduleDays,
    schedule_weeks_of_month: row.scheduleWeeksOfMonth,
    schedule_months: row.scheduleMonths,
    schedule_time: row.scheduleTime,
    scheduled_timezone: row.scheduledTimezone,
    use_scheduled_timezone: row.useScheduledTimezone,
    server_groups: row.serverGroups,
    community_worklet_id: row.communityWorkletId,
    community_worklet_uuid:
      row.communityWorkletId === null ? null : (findWorkletByLegacyId(row.communityWorkletId)?.uuid ?? null),
    create_time: row.createdAt.toISOString(),
    server_count: row.serverCount,
    next_run_time: row.nextRun?.toISOString() ?? null,
    needs_configuration: row.needsConfiguration,
    compliance: { compliant: row.compliant, non_compliant: row.nonCompliant, pending: row.pending },
  };
}

/** `GET /api/policies` (read): the zone's policies of the types the caller may read. */
export async function listPolicies(ctx: PoliciesCtx, authz: Authz, query: ListPoliciesQuery) {
  const { zone, types } = await requirePolicyZone(ctx, authz, query.o, 'read');
  const [field, dir] = (query.sort ?? 'name:asc').split(':') as [PolicySortField, 'asc' | 'desc'];
  const { rows, size } = await findPolicies(
    ctx.db,
    zone.id,
    { types: query.type ? types.filter((t) => t === query.type) : types, status: query.status, search: query.search },
    { sort: { field, dir }, offset: query.page * query.limit, limit: query.limit },
  );
  return { data: rows.map(toPolicy), size };
}

async function reload(ctx: PoliciesCtx, zoneId: number, id: number): Promise<PolicyWithCompliance> {
  return toPolicy((await findPolicyListRow(ctx.db, zoneId, id))!);
}

/** `GET /api/policies/{id}` (read of its type). */
export async function getPolicy(ctx: PoliciesCtx, authz: Authz, o: number | undefined, id: number) {
  const { zone, policy } = await requirePolicy(ctx, authz, o, id, 'read');
  return reload(ctx, zone.id, policy.id);
}

/** Checks what the schema cannot: the zone field, that every group is the zone's, and the installer's zone. */
async function checkTargets(ctx: PoliciesCtx, zoneId: number, body: CreatePolicyBody | UpdatePolicyBody) {
  if (body.organization_id !== undefined && body.organization_id !== zoneId) {
    throw validationError({ organization_id: ['The policy must belong to the zone it is saved in.'] });
  }
  const groups = [...new Set(body.server_groups)];
  const found = await findZoneGroupIds(ctx.db, zoneId, groups);
  if (found.length !== groups.length) throw validationError({ server_groups: ['This group does not exist.'] });
  // A required-software policy's installer must be one uploaded to this zone.
  if (body.policy_type_name === 'required_software') await checkPolicyInstaller(ctx, zoneId, body.configuration);
  const worklet = body.community_worklet_id;
  if (worklet !== undefined && worklet !== null) {
    if (body.policy_type_name !== 'custom') {
      throw validationError({ community_worklet_id: ['Only worklet policies come from the worklet catalogue.'] });
    }
    if (!findWorkletByLegacyId(worklet)) {
      throw validationError({ community_worklet_id: ['This worklet is not in the catalogue.'] });
    }
  }
  return groups;
}

/** Holds the target groups for the save's transaction; one deleted since {@link checkTargets} fails the save. */
async function lockTargetGroups(tx: Tx, zoneId: number, groups: number[]): Promise<void> {
  if ((await lockZoneGroups(tx, zoneId, groups)) !== groups.length) {
    throw validationError({ server_groups: ['This group does not exist.'] });
  }
}

/** A policy as the activity log names it. */
const policyObject = (p: { id: number; name: string }) => ({ type: 'policy', id: p.id, name: p.name });

function fieldsOf(body: CreatePolicyBody | UpdatePolicyBody, groups: number[]) {
  return {
    name: body.name,
    notes: body.notes,
    status: body.status,
    configuration: body.configuration as Record<string, unknown>,
    scheduleDays: body.schedule_days,
    scheduleWeeksOfMonth: body.schedule_weeks_of_month,
    scheduleMonths: body.schedule_months,
    scheduleTime: body.schedule_time,
    scheduledTimezone: body.scheduled_timezone,
    useScheduledTimezone: body.use_scheduled_timezone,
    serverGroups: groups,
    // Left out of an update that does not name it: editing a policy keeps where it came from.
    communityWorkletId: body.community_worklet_id,
  };
}

/** `POST /api/policies` (create of the body's type). */
export async function createPolicy(ctx: PoliciesCtx, authz: Authz, o: number | undefined, body: CreatePolicyBody) {
  const zone = await requireZone(ctx, authz, o, POLICY_RESOURCE[body.policy_type_name], 'create');
  requireFeature(ctx, zone, POLICY_FEATURE[body.policy_type_name]);
  const groups = await checkTargets(ctx, zone.id, body);
  const now = ctx.clock.now();
  const policy = await ctx.db.transaction(async (tx) => {
    await lockTargetGroups(tx, zone.id, groups);
    const row = await insertPolicy(tx, {
      ...fieldsOf(body, groups),
      organizationId: zone.id,
      type: body.policy_type_name,
      createdBy: authz.userId,
      createdAt: now,
      updatedAt: now,
    });
    await rebuildSlots(tx, row, now);
    const object = { type: 'policy', id: row.id, name: row.name };
    await logActivity(ctx, authz, zone.id, 'policy.create', object, { policy_type_name: row.type }, tx);
    return row;
  });
  return reload(ctx, zone.id, policy.id);
}

/** `PUT /api/policies/{id}` (modify of its type): the whole policy; the type cannot change. A clone's save clears `needs_configuration`. */
export async function updatePolicy(
  ctx: PoliciesCtx,
  authz: Authz,
  o: number | undefined,
  id: number,
  body: UpdatePolicyBody,
) {
  const { zone, policy } = await requirePolicy(ctx, authz, o, id, 'modify');
  if (body.policy_type_name !== policy.type) {
    throw validationError({ policy_type_name: ['The type of a policy cannot change.'] });
  }
  requireFeature(ctx, zone, POLICY_FEATURE[policy.type]);
  if (body.id !== undefined && body.id !== policy.id)
    throw validationError({ id: ['The id does not match the path.'] });
  const groups = await checkTargets(ctx, zone.id, body);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await lockTargetGroups(tx, zone.id, groups);
    const fields = fieldsOf(body, groups);
    const row = await storeUpdatePolicy(tx, zone.id, policy.id, {
      ...fields,
      needsConfiguration: false,
      updatedAt: now,
    });
    if (row) await rebuildSlots(tx, row, now);
    const changes = changesOf(policy, fields);
    await logActivity(ctx, authz, zone.id, 'policy.update', policyObject({ ...policy, ...fields }), { changes }, tx);
  });
  // Its groups (which devices' statuses count) or its name (in their reasons) may have changed.
  // After the commit, from what it committed, in chunks of their own: inside, a policy over
  // 100,000 devices held PGlite's one connection for the whole recompute (scheduler.ts does
  // the same for a run). The answer still waits for it.
  await refreshGroupsCompliance(ctx.db, zone.id, [...policy.serverGroups, ...groups], now);
  return reload(ctx, zone.id, policy.id);
}

/** `DELETE /api/policies/{id}` (delete of its type): it stops running; its runs stay for reports. */
export async function deletePolicy(ctx: PoliciesCtx, authz: Authz, o: number | undefined, id: number) {
  const { zone, policy } = await requirePolicy(ctx, authz, o, id, 'delete');
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await storeUpdatePolicy(tx, zone.id, policy.id, {
      deletedAt: now,
      status: 'inactive',
      updatedAt: now,
    });
    await replaceSlots(tx, policy.id, []);
    await logActivity(ctx, authz, zone.id, 'policy.delete', policyObject(policy), {}, tx);
  });
  // Its statuses stop counting for its devices (after the commit, as for an update).
  await refreshPolicyDevicesCompliance(ctx.db, policy.id, now);
}

/** `GET /api/policystats` (read): per policy, its devices compliant, needing attention and pending. */
export async function getPolicyStats(ctx: PoliciesCtx, authz: Authz, o: number | undefined): Promise<PolicyStats[]> {
  const { zone, types } = await requirePolicyZone(ctx, authz, o, 'read');
  const rows = await policyStats(ctx.db, zone.id, types);
  return rows.map((r) => ({
    policy_id: r.id,
    policy_name: r.name,
    policy_type_name: r.type,
    organization_id: zone.id,
    compliant: r.compliant,
    noncompliant: r.nonCompliant,
    pending: r.pending,
  }));
}

/**
 * `POST /api/policies/preview` (read): the devices a draft policy's groups and device
 * filters would hit, before it is saved.
 */
export async function previewTargets(
  ctx: PoliciesCtx,
  authz: Authz,
  o: number | undefined,
  body: DeviceFiltersPreviewBody,
) {
  const { zone } = await requirePolicyZone(ctx, authz, o, 'read');
  const groups = await findZoneGroupIds(ctx.db, zone.id, [...new Set(body.server_groups)]);
  const devices = await findCandidateDevices(ctx.db, zone.id, { groupIds: groups, ids: null, now: ctx.clock.now() });
  const config = { device_filters_enabled: body.device_filters.length > 0, device_filters: body.device_filters };
  const data = devices
    .filter((d) => matchesFilters(config, d))
    .map((d) => ({
      id: d.id,
      name: d.hostname,
      display_name: d.customName || d.hostname,
      hostname: d.hostname,
      os_family: d.osFamily,
      os_version: d.osVersion,
      server_group_id: d.groupId,
      tags: d.tags,
      ip_addrs: d.ipAddrs,
      ip_addrs_private: d.ipAddrsPrivate,
      connected: d.isOnline,
    }));
  return { data, size: data.length };
}

export type { PolicyRow };
