import type { AgentCommandArgs, AgentCommandType, PatchSeverity } from '@patchwell/core/agent/agent-protocol.schema';
import {
  QUEUE_COMMAND_TO_AGENT,
  type AgentInfo,
  type Dashboard,
  type Device,
  type DeviceBatchBody,
  type DeviceBatchResult,
  type DeviceCommand,
  type DeviceCommandList,
  type DeviceDetail,
  type DevicePackageList,
  type DeviceSortField,
  type ListDevicesQuery,
  type QueueCommandBody,
  type UpdateDeviceBody,
} from '@patchwell/core/devices/devices.schema';
import { isLoopbackUrl } from '@patchwell/core/devices/devices.schema';
import { AGENT_DOWNLOAD_PATH, agentBundle } from '../../agent-api/agent-bundle';
import { agentInstallCommands } from '../../agent-api/agent-install';
import type { AgentRuntime } from '../../agent-api/agent-runtime';
import type { AppContext } from '../../context';
import { notFound, AppError, validationError } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { changesOf, logActivity, logActivityMany } from '../activity/activity.service';
import { listCommands, queueCommands, type CommandRow } from '../commands/commands.service';
import { requireZone } from '../zones/zone-access.service';
import { cachedLiveDeviceCount } from './live-device-counts';
import { nextWindowOfGroup } from '../maintenance-windows/maintenance-windows.service';
import { getAccessKey } from '../zones/zone-settings.service';
import {
  changeTags,
  countPackages,
  findDeviceDetail,
  dashboardCounts,
  findDevicePackages,
  findZoneDeviceIds,
  removeDevices,
  updateDevice as storeUpdateDevice,
} from './devices.store';
import {
  findAllDeviceIds,
  findDevice,
  findDevicesAsApiJson,
  type DeviceFilter,
  type DeviceListRow,
  type DeviceSort,
} from './device-list.store';
import { copyDevicePage, exportColumns } from './device-export.store';
import { findGroup, moveDevicesToGroup } from './groups.store';
import { refreshCompliance } from './compliance.store';

type Ctx = AppContext & { agents: AgentRuntime };

export function toDevice(row: DeviceListRow): Device {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.hostname,
    display_name: row.customName || row.hostname,
    custom_name: row.customName,
    hostname: row.hostname,
    os_family: row.osFamily,
    os_name: row.osName,
    os_version: row.osVersion,
    agent_version: row.agentVersion,
    server_group_id: row.groupId,
    group_name: row.groupName,
    tags: row.tags,
    ip_addrs: row.ipAddrs,
    ip_addrs_private: row.ipAddrsPrivate,
    connected: row.isOnline,
    last_seen_at: row.lastSeenAt?.toISOString() ?? null,
    initializing: !row.lastInventoryAt,
    needs_reboot: row.needsReboot,
    pending_patches: row.pendingPatches,
    compliance: row.compliance,
    compliance_reason: row.complianceReason,
    create_time: row.createdAt.toISOString(),
    next_patch_time: null,
  };
}

export function toDeviceCommand(row: CommandRow): DeviceCommand {
  return {
    id: row.id,
    type: row.type,
    args: row.args,
    status: row.status,
    exit_code: row.exitCode,
    stdout_tail: row.stdoutTail,
    stderr_tail: row.stderrTail,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    created_by: row.createdBy,
  };
}

/** The list filters of a query (shared by the list and the CSV export). */
export function filterOf(query: ListDevicesQuery): DeviceFilter {
  return {
    group: query.group,
    osFamily: query.os_family,
    status: query.status,
    needsReboot: query.needs_reboot,
    compliance: query.compliance,
    tag: query.tag,
    criticalOlderThan: query.critical_older_than,
    search: query.search,
    ids: query.ids,
  };
}

export function sortOf(sort: string | undefined): DeviceSort {
  const [field, dir] = (sort ?? 'name:asc').split(':') as [DeviceSortField, 'asc' | 'desc'];
  return { field, dir };
}

/**
 * `GET /api/servers` (Endpoint.read): the page as the JSON text of `ZDeviceList`, the rows as
 * the database wrote them (findDevicesAsApiJson), sent on as they are.
 */
export async function listDevicesJson(ctx: Ctx, authz: Authz, query: ListDevicesQuery): Promise<string> {
  const zone = await requireZone(ctx, authz, query.o, 'Endpoint', 'read');
  const { rows, size } = await findDevicesAsApiJson(ctx.db, zone.id, filterOf(query), {
    sort: sortOf(query.sort),
    offset: query.page * query.limit,
    limit: query.limit,
    now: ctx.clock.now(),
    countLive: cachedLiveDeviceCount,
  });
  return `{"data":${rows},"size":${size}}`;
}

/**
 * Ids a page of the CSV export carries: a COPY statement of 50,000 ids is about 350 kB, and
 * its CSV about 9 MiB. On PGlite, 100,000 devices took 2.35 s in pages of 10,000 and 1.77 s
 * in pages of 50,000 (medians of 9, bench/README.md): a page that large reads the devices in
 * one pass instead of one index lookup per row.
 */
const EXPORT_PAGE = 50_000;

/**
 * The filtered list as CSV for the export (Endpoint.read), checked before the first byte is
 * sent: the header line, then each page's lines as the database wrote them (device-export.store.ts).
 */
export async function exportDevices(
  ctx: Ctx,
  authz: Authz,
  query: ListDevicesQuery,
): Promise<AsyncGenerator<Buffer, void, void>> {
  const zone = await requireZone(ctx, authz, query.o, 'Endpoint', 'read');
  const now = ctx.clock.now();
  const ids = await findAllDeviceIds(ctx.db, zone.id, filterOf(query), { sort: sortOf(query.sort), now });
  async function* csv(): AsyncGenerator<Buffer, void, void> {
    yield Buffer.from(
      exportColumns(now)
        .map(([header]) => header)
        .join(',') + '\n',
    );
    for (let i = 0; i < ids.length; i += EXPORT_PAGE) {
      const page = await copyDevicePage(ctx.db, zone.id, ids.slice(i, i + EXPORT_PAGE), ctx.clock.now());
      if (page.length) yield page;
    }
  }
  return csv();
}

/** A device as the activity log names it. */
function deviceObject(device: { id: number; customName: string | null; hostname: string }) {
  return { type: 'device', id: device.id, name: device.customName ?? device.hostname };
}

// The name is read with the insert (activity.store.ts), by id.
const deviceObjectById = (id: number) => ({ type: 'device', id });

async function deviceOr404(ctx: Ctx, zoneId: number, id: number): Promise<DeviceListRow> {
  const device = await findDevice(ctx.db, zoneId, id, ctx.clock.now());
  if (!device) throw notFound();
  return device;
}

/** `GET /api/servers/{id}` (Endpoint.read): the row, its details and latest 20 commands. */
export async function getDevice(ctx: Ctx, authz: Authz, o: number | undefined, id: number): Promise<DeviceDetail> {
  const zone = await requireZone(ctx, authz, o, 'Endpoint', 'read');
  const device = await deviceOr404(ctx, zone.id, id);
  const [packageCount, commands, detail, nextMaintenanceWindow] = await Promise.all([
    countPackages(ctx.db, device.id),
    listCommands(ctx.db, zone.id, device.id, { offset: 0, limit: 20 }),
    findDeviceDetail(ctx.db, device.id),
    nextWindowOfGroup(ctx, zone.id, device.groupId),
  ]);
  return {
    ...toDevice(device),
    // Uptime and the signed-in user come with every check-in, fresher than the inventory's.
    detail: detail && {
      ...detail,
      ...(device.uptimeS !== null ? { uptime_s: device.uptimeS } : {}),
      ...(device.loggedInUser !== null ? { logged_in_user: device.loggedInUser } : {}),
    },
    notes: device.notes,
    package_count: packageCount,
    last_inventory_at: device.lastInventoryAt?.toISOString() ?? null,
    commands: commands.rows.map(toDeviceCommand),
    next_maintenance_window: nextMaintenanceWindow,
  };
}

/** `PUT /api/servers/{id}` (Endpoint.manage): custom name, group, tags, notes. */
export async function updateDevice(
  ctx: Ctx,
  authz: Authz,
  o: number | undefined,
  id: number,
  body: UpdateDeviceBody,
): Promise<DeviceDetail> {
  const zone = await requireZone(ctx, authz, o, 'Endpoint', 'manage');
  const device = await deviceOr404(ctx, zone.id, id);
  const patch: Parameters<typeof storeUpdateDevice>[3] = {};
  let groupName = device.groupName;
  if (body.custom_name !== undefined) patch.customName = body.custom_name ? body.custom_name : null;
  if (body.tags !== undefined) patch.tags = [...new Set(body.tags)].sort();
  if (body.notes !== undefined) patch.notes = body.notes;
  if (body.server_group_id !== undefined) {
    const group = await findGroup(ctx.db, zone.id, body.server_group_id);
    if (!group) throw validationError({ server_group_id: ['This group does not exist.'] });
    patch.groupId = group.id;
    patch.checkinIntervalS = group.checkinIntervalS;
    groupName = group.name;
  }
  // An empty body changes nothing (an UPDATE without columns is no SQL at all).
  if (Object.keys(patch).length) await storeUpdateDevice(ctx.db, zone.id, id, patch);
  // Which policies target it (its group, its tags under device filters) may have changed.
  if (patch.groupId !== undefined || patch.tags !== undefined) await refreshCompliance(ctx.db, [id], ctx.clock.now());
  if (patch.checkinIntervalS !== undefined) await ctx.agents.forget([id]);
  const changes = changesOf(
    { custom_name: device.customName, tags: device.tags, notes: device.notes, group: device.groupName },
    { custom_name: patch.customName, tags: patch.tags, notes: patch.notes, group: groupName },
  );
  await logActivity(ctx, authz, zone.id, 'device.update', deviceObject(device), { changes });
  return getDevice(ctx, authz, zone.id, id);
}

/** `DELETE /api/servers/{id}` (Endpoint.delete): marks it removed; its agent gets 410 and stops. */
export async function removeDevice(ctx: Ctx, authz: Authz, o: number | undefined, id: number): Promise<void> {
  const zone = await requireZone(ctx, authz, o, 'Endpoint', 'delete');
  const device = await deviceOr404(ctx, zone.id, id);
  await removeDevices(ctx.db, zone.id, [id], ctx.clock.now());
  await logActivity(ctx, authz, zone.id, 'device.remove', deviceObject(device));
  await ctx.agents.forget([id]);
  // A long-polling agent hears at once (its next check-in gets 410) instead of after its wait.
  await ctx.agents.wake([id]);
}

/** `GET /api/servers/{id}/packages` (Endpoint.read). */
export async function listDevicePackages(
  ctx: Ctx,
  authz: Authz,
  query: { o: number | undefined; page: number; limit: number; search?: string; needs_update?: boolean },
  id: number,
): Promise<DevicePackageList> {
  const zone = await requireZone(ctx, authz, query.o, 'Endpoint', 'read');
  await deviceOr404(ctx, zone.id, id);
  const { rows, size } = await findDevicePackages(ctx.db, id, {
    search: query.search,
    needsUpdate: query.needs_update,
    offset: query.page * query.limit,
    limit: query.limit,
  });
  return {
    data: rows.map((r) => ({
      name: r.name,
      version: r.version,
      source: r.source,
      patch:
        r.patchVersion === null
          ? null
          : {
              version: r.patchVersion,
              severity: (r.severity ?? 'unknown') as PatchSeverity,
              cves: r.cves ?? [],
              kb: r.kb,
              reboot_required: r.rebootRequired ?? false,
            },
    })),
    size,
  };
}

function queue(
  ctx: Ctx,
  authz: Authz,
  zoneId: number,
  deviceIds: number[],
  type: AgentCommandType,
  args: AgentCommandArgs,
): Promise<CommandRow[]> {
  return queueCommands(ctx, { zoneId, deviceIds, type, args, createdBy: authz.userId });
}

/** `POST /api/servers/{id}/queues` (Endpoint.manage): queues a command; a waiting check-in gets it at once. */
export async function queueCommand(
  ctx: Ctx,
  authz: Authz,
  o: number | undefined,
  id: number,
  body: QueueCommandBody,
): Promise<DeviceCommand> {
  const zone = await requireZone(ctx, authz, o, 'Endpoint', 'manage');
  const device = await deviceOr404(ctx, zone.id, id);
  const type = QUEUE_COMMAND_TO_AGENT[body.command_type_name];
  const given = body.args ?? {};
  const args: AgentCommandArgs = {};
  if (type === 'install_updates') args.names = given.names;
  if (type === 'install_package' || type === 'remove_package') {
    args.package = given.package;
    if (given.version) args.version = given.version;
  }
  if (type === 'reboot' && given.delay_s !== undefined) args.delay_s = given.delay_s;
  const [row] = await queue(ctx, authz, zone.id, [id], type, args);
  await logActivity(ctx, authz, zone.id, `device.${type}`, deviceObject(device), { command_id: row!.id, ...args });
  return toDeviceCommand(row!);
}

/** `GET /api/servers/{id}/commands` (Endpoint.read), newest first. */
export async function listDeviceCommands(
  ctx: Ctx,
  authz: Authz,
  query: { o: number | undefined; page: number; limit: number },
  id: number,
): Promise<DeviceCommandList> {
  const zone = await requireZone(ctx, authz, query.o, 'Endpoint', 'read');
  await deviceOr404(ctx, zone.id, id);
  const { rows, size } = await listCommands(ctx.db, zone.id, id, {
    offset: query.page * query.limit,
    limit: query.limit,
  });
  return { data: rows.map(toDeviceCommand), size };
}

/**
 * The permission check of {@link batchDevices} alone: tags, group, scan and reboot need
 * Endpoint.manage, remove Endpoint.delete. A replayed answer (Idempotency-Key) is still a
 * decision on the caller's rights now.
 */
export function requireBatchPermission(
  ctx: Ctx,
  authz: Authz,
  o: number | undefined,
  action: DeviceBatchBody['action'],
) {
  return requireZone(ctx, authz, o, 'Endpoint', action === 'remove' ? 'delete' : 'manage');
}

/**
 * `POST /api/servers/batch` ({@link requireBatchPermission}). Ids of other zones (or removed
 * devices) are ignored, not reported.
 */
export async function batchDevices(
  ctx: Ctx,
  authz: Authz,
  o: number | undefined,
  body: DeviceBatchBody,
): Promise<DeviceBatchResult> {
  const zone = await requireBatchPermission(ctx, authz, o, body.action);
  const ids = [...new Set(body.ids)];
  // One event per device the action reaches, written in one statement (a batch takes up to 500).
  const own = await findZoneDeviceIds(ctx.db, zone.id, ids);
  const log = (details: Record<string, unknown> = {}) =>
    logActivityMany(ctx, authz, zone.id, `device.${body.action}`, own.map(deviceObjectById), details);
  switch (body.action) {
    case 'tag':
    case 'untag': {
      const changed = await changeTags(ctx.db, zone.id, own, body.tags ?? [], body.action === 'tag');
      // Policies with device filters on tags may now target them, or no longer.
      await refreshCompliance(ctx.db, changed, ctx.clock.now());
      await log({ tags: body.tags ?? [] });
      return { affected: changed.length };
    }
    case 'group': {
      const group = await findGroup(ctx.db, zone.id, body.server_group_id!);
      if (!group) throw validationError({ server_group_id: ['This group does not exist.'] });
      const moved = await moveDevicesToGroup(ctx.db, zone.id, own, group, ctx.clock.now());
      await ctx.agents.forget(ids);
      await log({ group: group.name });
      return { affected: moved };
    }
    case 'scan':
    case 'reboot': {
      await queue(ctx, authz, zone.id, own, body.action, {});
      await log();
      return { affected: own.length };
    }
    case 'remove': {
      const removed = await removeDevices(ctx.db, zone.id, own, ctx.clock.now());
      await ctx.agents.forget(ids);
      await ctx.agents.wake(ids);
      await log();
      return { affected: removed.length };
    }
    default:
      throw validationError({ action: ['Unknown action.'] });
  }
}

/** Install command lines per OS for the zone's key (or a placeholder) and the served agent's checksum. */
export function installCommands(serverUrl: string, key: string | null, sha256: string | null): AgentInfo['install'] {
  return agentInstallCommands({ serverUrl, accessKey: key, sha256 });
}

/** `GET /api/info` (Endpoint.read): server URL, install commands, and the key for Organization.manage. */
export async function getAgentInfo(
  ctx: Ctx,
  authz: Authz,
  o: number | undefined,
  serverUrl: string,
): Promise<AgentInfo> {
  const zone = await requireZone(ctx, authz, o, 'Endpoint', 'read');
  let key: string | null = null;
  if (authz.may({ id: zone.id, accountId: zone.accountId }, 'Organization', 'manage')) {
    key = await getAccessKey(ctx, authz, zone.id)
      .then((k) => k.access_key)
      .catch((err: unknown) => {
        // An unreadable key (the secret key changed) is shown as absent; rotating fixes it.
        if (err instanceof AppError && err.status === 409) return null;
        throw err;
      });
  }
  const bundle = await agentBundle.read();
  return {
    server_url: serverUrl,
    server_url_is_loopback: isLoopbackUrl(serverUrl),
    access_key: key,
    install: installCommands(serverUrl, key, bundle?.sha256 ?? null),
    agent: {
      download_url: `${serverUrl}${AGENT_DOWNLOAD_PATH}`,
      sha256: bundle?.sha256 ?? null,
      size_bytes: bundle?.size ?? null,
    },
  };
}

/** `GET /api/dashboard` (Endpoint.read): counts from the zone's devices and patches. */
export async function getDashboard(ctx: Ctx, authz: Authz, o: number | undefined): Promise<Dashboard> {
  const zone = await requireZone(ctx, authz, o, 'Endpoint', 'read');
  const c = await dashboardCounts(ctx.db, zone.id, ctx.clock.now());
  return {
    devices: { total: c.total, online: c.online, offline: c.total - c.online, needs_reboot: c.needsReboot },
    by_os: c.byOs.map((r) => ({ os_family: r.osFamily, count: r.count })),
    compliance: c.compliance,
    patches: c.patches,
  };
}
