import type {
  CreateServerGroupBody,
  MoveDevicesBody,
  ServerGroup,
  UpdateServerGroupBody,
} from '@patchwell/core/devices/groups.schema';
import type { AgentRuntime } from '../../agent-api/agent-runtime';
import type { AppContext } from '../../context';
import { notFound, AppError, validationError } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { changesOf, logActivity, logActivityMany } from '../activity/activity.service';
import { requireZone } from '../zones/zone-access.service';
import { findZoneDeviceIds } from './devices.store';
import {
  deleteGroup,
  ensureDefaultGroup,
  findGroup,
  findGroups,
  insertGroup,
  isGroupNameTaken,
  moveDevicesToGroup,
  updateGroup as storeUpdateGroup,
  type GroupWithCount,
} from './groups.store';
import { refreshGroupsCompliance } from './compliance.store';

type Ctx = AppContext & { agents: AgentRuntime };

export function toServerGroup(g: GroupWithCount): ServerGroup {
  return {
    id: g.id,
    name: g.name,
    organization_id: g.organizationId,
    parent_server_group_id: g.parentId,
    refresh_interval: g.refreshInterval,
    checkin_interval_s: g.checkinIntervalS,
    notes: g.notes,
    server_count: g.serverCount,
    default: g.isDefault,
  };
}

/** A group as the activity log names it. */
const groupObject = (g: { id: number; name: string }) => ({ type: 'group', id: g.id, name: g.name });

const nameTaken = () => new AppError('groups.name_taken');

async function groupOr404(ctx: Ctx, zoneId: number, id: number): Promise<GroupWithCount> {
  const group = await findGroup(ctx.db, zoneId, id);
  if (!group) throw notFound();
  return group;
}

/** A parent must be another group of the zone, and not one of the group's own descendants. */
async function checkParent(ctx: Ctx, zoneId: number, parentId: number | null | undefined, selfId?: number) {
  if (parentId === null || parentId === undefined) return;
  const groups = await findGroups(ctx.db, zoneId);
  const byId = new Map(groups.map((g) => [g.id, g]));
  if (!byId.has(parentId)) throw validationError({ parent_server_group_id: ['This group does not exist.'] });
  for (let id: number | null = parentId; id !== null; id = byId.get(id)?.parentId ?? null) {
    if (id === selfId) throw validationError({ parent_server_group_id: ['A group cannot be inside itself.'] });
  }
}

/** `GET /api/servergroups` (ServerGroup.read): the default group first (created on first use). */
export async function listGroups(ctx: Ctx, authz: Authz, o: number | undefined): Promise<ServerGroup[]> {
  const zone = await requireZone(ctx, authz, o, 'ServerGroup', 'read');
  await ensureDefaultGroup(ctx.db, zone.id, ctx.clock.now());
  return (await findGroups(ctx.db, zone.id)).map(toServerGroup);
}

export async function getGroup(ctx: Ctx, authz: Authz, o: number | undefined, id: number): Promise<ServerGroup> {
  const zone = await requireZone(ctx, authz, o, 'ServerGroup', 'read');
  return toServerGroup(await groupOr404(ctx, zone.id, id));
}

/** `POST /api/servergroups` (ServerGroup.create). */
export async function createGroup(
  ctx: Ctx,
  authz: Authz,
  o: number | undefined,
  body: CreateServerGroupBody,
): Promise<ServerGroup> {
  const zone = await requireZone(ctx, authz, o, 'ServerGroup', 'create');
  if (body.organization_id !== undefined && body.organization_id !== zone.id) {
    throw validationError({ organization_id: ['The zone must be the one the group is created in.'] });
  }
  await checkParent(ctx, zone.id, body.parent_server_group_id);
  if (await isGroupNameTaken(ctx.db, zone.id, body.name)) throw nameTaken();
  const row = await insertGroup(ctx.db, {
    organizationId: zone.id,
    name: body.name,
    parentId: body.parent_server_group_id ?? null,
    refreshInterval: body.refresh_interval,
    checkinIntervalS: body.checkin_interval_s,
    notes: body.notes,
    createdAt: ctx.clock.now(),
  });
  await logActivity(ctx, authz, zone.id, 'group.create', groupObject(row), {
    parent_server_group_id: row.parentId,
    refresh_interval: row.refreshInterval,
    checkin_interval_s: row.checkinIntervalS,
  });
  return toServerGroup({ ...row, serverCount: 0 });
}

/** `PUT /api/servergroups/{id}` (ServerGroup.modify): `organization_id` must equal `o`. */
export async function updateGroup(
  ctx: Ctx,
  authz: Authz,
  o: number | undefined,
  id: number,
  body: UpdateServerGroupBody,
): Promise<ServerGroup> {
  const zone = await requireZone(ctx, authz, o, 'ServerGroup', 'modify');
  const before = await groupOr404(ctx, zone.id, id);
  if (body.organization_id !== zone.id) {
    throw validationError({ organization_id: ['The zone of a group cannot change.'] });
  }
  await checkParent(ctx, zone.id, body.parent_server_group_id, id);
  if (await isGroupNameTaken(ctx.db, zone.id, body.name, id)) throw nameTaken();
  await storeUpdateGroup(ctx.db, zone.id, id, {
    name: body.name,
    parentId: body.parent_server_group_id === undefined ? undefined : body.parent_server_group_id,
    refreshInterval: body.refresh_interval,
    checkinIntervalS: body.checkin_interval_s,
    notes: body.notes,
  });
  const after = await groupOr404(ctx, zone.id, id);
  const fields = ['name', 'parentId', 'refreshInterval', 'checkinIntervalS', 'notes'] as const;
  await logActivity(ctx, authz, zone.id, 'group.update', groupObject(after), {
    changes: changesOf(before, after, [...fields]),
  });
  return toServerGroup(after);
}

/** `DELETE /api/servergroups/{id}` (ServerGroup.delete): its devices move to the default group, which cannot be deleted. */
export async function removeGroup(ctx: Ctx, authz: Authz, o: number | undefined, id: number): Promise<void> {
  const zone = await requireZone(ctx, authz, o, 'ServerGroup', 'delete');
  const group = await groupOr404(ctx, zone.id, id);
  if (group.isDefault) throw new AppError('groups.default_undeletable');
  const fallback = await ensureDefaultGroup(ctx.db, zone.id, ctx.clock.now());
  await deleteGroup(ctx.db, zone.id, id, fallback);
  await refreshGroupsCompliance(ctx.db, zone.id, [fallback.id], ctx.clock.now());
  await logActivity(ctx, authz, zone.id, 'group.delete', groupObject(group), {
    devices_moved_to: fallback.name,
    devices: group.serverCount,
  });
}

/** `POST /api/servergroups/{id}/servers` (ServerGroup.modify and Endpoint.manage): moves devices into the group. */
export async function moveDevices(
  ctx: Ctx,
  authz: Authz,
  o: number | undefined,
  id: number,
  body: MoveDevicesBody,
): Promise<{ affected: number }> {
  const zone = await requireZone(ctx, authz, o, 'ServerGroup', 'modify');
  authz.require({ id: zone.id, accountId: zone.accountId }, 'Endpoint', 'manage');
  const group = await groupOr404(ctx, zone.id, id);
  const ids = [...new Set(body.ids)];
  const own = await findZoneDeviceIds(ctx.db, zone.id, ids);
  const affected = await moveDevicesToGroup(ctx.db, zone.id, own, group, ctx.clock.now());
  await ctx.agents.forget(ids);
  // Each device's history shows the move, as a batch "group" action does.
  const devices = own.map((deviceId) => ({ type: 'device', id: deviceId }));
  await logActivityMany(ctx, authz, zone.id, 'device.group', devices, { group: group.name });
  return { affected };
}
