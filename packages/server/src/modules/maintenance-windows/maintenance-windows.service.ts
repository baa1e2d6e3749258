import {
  MAINTENANCE_WINDOW_TEXTS,
  MAINTENANCE_WINDOWS_PER_ZONE_MAX,
  type MaintenanceWindow,
  type MaintenanceWindowBody,
  type MaintenanceWindowList,
  type MaintenanceWindowListQuery,
} from '@patchwell/core/maintenance/maintenance-windows.schema';
import type { WindowOccurrence } from '@patchwell/core/maintenance/window-occurrence.schema';
import { nextWindow, occurrenceAt, type WindowRule } from '@patchwell/core/maintenance/maintenance-windows';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import type { Exec } from '../commands/commands.store';
import { AppError, notFound, validationError } from '../../domain/errors';
import { changesOf, logActivity } from '../activity/activity.service';
import { findGroup } from '../devices/groups.store';
import { requireZone } from '../zones/zone-access.service';
import {
  countWindows,
  deleteWindow,
  findGroupRules,
  findWindow,
  findWindows,
  insertWindow,
  lockEndedWindows,
  lockZoneWindows,
  setNextOccurrence,
  updateWindow as storeUpdateWindow,
  type WindowWithGroup,
} from './maintenance-windows.store';

/**
 * Maintenance windows of device groups (issue 15, decision 0019): CRUD under the groups'
 * rights (ServerGroup read/create/modify/delete), the occurrence each window stores for
 * the engine, and the next window a device waits for.
 */

type Ctx = Pick<AppContext, 'db' | 'clock'>;

const occurrenceJson = (o: { start: Date; end: Date } | null): WindowOccurrence | null =>
  o ? { starts_at: o.start.toISOString(), ends_at: o.end.toISOString() } : null;

function toWindow(row: WindowWithGroup, now: Date): MaintenanceWindow {
  const next = occurrenceAt(row, now);
  return {
    id: row.id,
    name: row.name,
    server_group_id: row.groupId,
    server_group_name: row.groupName,
    timezone: row.timezone,
    schedule: row.schedule,
    // From the rule, not the stored columns: the answer is exact even between two ticks.
    next: occurrenceJson(next),
    is_open: next !== null && next.start <= now,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The schedule as stored: a weekly window's days in order. */
function normalized(body: MaintenanceWindowBody): MaintenanceWindowBody {
  const s = body.schedule;
  return s.kind === 'weekly' ? { ...body, schedule: { ...s, days: [...s.days].sort((a, b) => a - b) } } : body;
}

/** A window as the activity log names it. */
const windowObject = (w: { id: number; name: string }) => ({ type: 'maintenance_window', id: w.id, name: w.name });

async function windowOr404(ctx: Ctx, zoneId: number, id: number): Promise<WindowWithGroup> {
  const row = await findWindow(ctx.db, zoneId, id);
  if (!row) throw notFound();
  return row;
}

/** The group must be one of the zone's: another zone's reads as not existing (400, never 404 of the window). */
async function checkGroup(ctx: AppContext, zoneId: number, groupId: number): Promise<void> {
  if (!(await findGroup(ctx.db, zoneId, groupId))) {
    throw validationError({ server_group_id: [MAINTENANCE_WINDOW_TEXTS.group] });
  }
}

/** `GET /api/maintenance-windows` (ServerGroup.read). */
export async function listWindows(
  ctx: AppContext,
  authz: Authz,
  query: MaintenanceWindowListQuery,
): Promise<MaintenanceWindowList> {
  const zone = await requireZone(ctx, authz, query.o, 'ServerGroup', 'read');
  const rows = await findWindows(ctx.db, zone.id, query.server_group_id);
  const now = ctx.clock.now();
  return { data: rows.map((r) => toWindow(r, now)), size: rows.length };
}

/** `GET /api/maintenance-windows/{id}` (ServerGroup.read). */
export async function getWindow(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
): Promise<MaintenanceWindow> {
  const zone = await requireZone(ctx, authz, o, 'ServerGroup', 'read');
  return toWindow(await windowOr404(ctx, zone.id, id), ctx.clock.now());
}

/** `POST /api/maintenance-windows` (ServerGroup.create). */
export async function createWindow(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  input: MaintenanceWindowBody,
): Promise<MaintenanceWindow> {
  const zone = await requireZone(ctx, authz, o, 'ServerGroup', 'create');
  const body = normalized(input);
  await checkGroup(ctx, zone.id, body.server_group_id);
  const now = ctx.clock.now();
  const next = occurrenceAt(body, now);
  const id = await ctx.db.transaction(async (tx) => {
    await lockZoneWindows(tx, zone.id);
    if ((await countWindows(tx, zone.id)) >= MAINTENANCE_WINDOWS_PER_ZONE_MAX) {
      throw new AppError('maintenance_windows.too_many');
    }
    const row = await insertWindow(tx, {
      organizationId: zone.id,
      groupId: body.server_group_id,
      name: body.name,
      timezone: body.timezone,
      schedule: body.schedule,
      nextStartAt: next?.start ?? null,
      nextEndAt: next?.end ?? null,
      createdBy: authz.userId,
      createdAt: now,
      updatedAt: now,
    });
    await logActivity(
      ctx,
      authz,
      zone.id,
      'maintenance_window.create',
      windowObject(row),
      { server_group_id: body.server_group_id, timezone: body.timezone, schedule: body.schedule },
      tx,
    );
    return row.id;
  });
  return toWindow(await windowOr404(ctx, zone.id, id), now);
}

/** `PUT /api/maintenance-windows/{id}` (ServerGroup.modify): the whole window. */
export async function updateWindow(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
  input: MaintenanceWindowBody,
): Promise<MaintenanceWindow> {
  const zone = await requireZone(ctx, authz, o, 'ServerGroup', 'modify');
  const body = normalized(input);
  const before = await windowOr404(ctx, zone.id, id);
  await checkGroup(ctx, zone.id, body.server_group_id);
  const now = ctx.clock.now();
  const next = occurrenceAt(body, now);
  await ctx.db.transaction(async (tx) => {
    await storeUpdateWindow(tx, zone.id, id, {
      name: body.name,
      groupId: body.server_group_id,
      timezone: body.timezone,
      schedule: body.schedule,
      nextStartAt: next?.start ?? null,
      nextEndAt: next?.end ?? null,
      updatedAt: now,
    });
    const after = {
      ...before,
      name: body.name,
      groupId: body.server_group_id,
      timezone: body.timezone,
      schedule: body.schedule,
    };
    await logActivity(
      ctx,
      authz,
      zone.id,
      'maintenance_window.update',
      windowObject(after),
      { changes: changesOf(before, after, ['name', 'groupId', 'timezone', 'schedule']) },
      tx,
    );
  });
  return toWindow(await windowOr404(ctx, zone.id, id), now);
}

/** `DELETE /api/maintenance-windows/{id}` (ServerGroup.delete). */
export async function removeWindow(ctx: AppContext, authz: Authz, o: number | undefined, id: number): Promise<void> {
  const zone = await requireZone(ctx, authz, o, 'ServerGroup', 'delete');
  const before = await windowOr404(ctx, zone.id, id);
  await ctx.db.transaction(async (tx) => {
    await deleteWindow(tx, zone.id, id);
    await logActivity(
      ctx,
      authz,
      zone.id,
      'maintenance_window.delete',
      windowObject(before),
      { server_group_id: before.groupId, timezone: before.timezone, schedule: before.schedule },
      tx,
    );
  });
}

/**
 * The rules of each group's windows (the engine's dispatch asks once per run, then
 * decides per group, not per device, with core's `isInside`).
 */
export async function windowRulesByGroup(
  exec: Exec,
  zoneId: number,
  groupIds: number[] | null,
): Promise<Map<number, WindowRule[]>> {
  const byGroup = new Map<number, WindowRule[]>();
  for (const r of await findGroupRules(exec, zoneId, groupIds)) {
    const list = byGroup.get(r.groupId);
    if (list) list.push(r);
    else byGroup.set(r.groupId, [r]);
  }
  return byGroup;
}

/** The window a device of the group works in or waits for (the device details show it). */
export async function nextWindowOfGroup(ctx: Ctx, zoneId: number, groupId: number): Promise<WindowOccurrence | null> {
  const rules = (await windowRulesByGroup(ctx.db, zoneId, [groupId])).get(groupId) ?? [];
  return occurrenceJson(nextWindow(rules, ctx.clock.now()));
}

const ADVANCE_BATCH = 500;

/**
 * Moves each window whose stored occurrence ended on to its next one (the engine's tick,
 * before it dispatches or queues anything). Safe on several nodes at once. Returns how many.
 */
export async function advanceWindows(ctx: Ctx): Promise<number> {
  let total = 0;
  for (;;) {
    const now = ctx.clock.now();
    const n = await ctx.db.transaction(async (tx) => {
      const rows = await lockEndedWindows(tx, now, ADVANCE_BATCH);
      for (const row of rows) await setNextOccurrence(tx, row.id, occurrenceAt(row, now));
      return rows.length;
    });
    total += n;
    if (n < ADVANCE_BATCH) return total;
  }
}
