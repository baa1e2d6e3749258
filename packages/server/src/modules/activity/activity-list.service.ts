import {
  ACTIVITY_COUNT_CAP,
  type ActivityEvent,
  type ActivityEventList,
  type ActivityFilters,
  type ActivityQuery,
} from '@patchwell/core/activity/activity.schema';
import { resolveDateRange } from '@patchwell/core/reports/date-range';
import { summarizeActivity } from '@patchwell/core/activity/summary';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { validationError } from '../../domain/errors';
import { requireZone } from '../zones/zone-access.service';
import {
  findActivity,
  findActivityAfter,
  type ActivityFilter,
  type ActivityRow,
  type ActivityScope,
} from './activity.store';

/** `GET /api/events` and its CSV: the zone's activity log, newest first (Report.read). */

function actorTypeOf(row: ActivityRow): ActivityEvent['actor']['type'] {
  if (row.via === 'agent') return 'device';
  if (row.via === 'api_key') return 'api_key';
  if (row.via === 'system' && row.userId === null) return 'system';
  return 'user';
}

function toEvent(row: ActivityRow): ActivityEvent {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    organization_id: row.organizationId,
    actor: {
      type: actorTypeOf(row),
      user_id: row.userId,
      api_key_id: row.apiKeyId,
      device_id: row.deviceId,
      name: row.actorName,
    },
    via: row.via,
    action: row.action,
    object: { type: row.objectType, id: row.objectId, name: row.objectName },
    details: row.details,
    summary: summarizeActivity(row.details),
    client_address: row.clientAddress,
  };
}

/** The caller's scope in zone `o` and the filter, once Report.read there is checked and the dates are. */
async function scopeAndFilter(
  ctx: AppContext,
  authz: Authz,
  query: ActivityFilters,
): Promise<{ scope: ActivityScope; filter: ActivityFilter }> {
  const zone = await requireZone(ctx, authz, query.o, 'Report', 'read');
  const resolved = resolveDateRange(query, ctx.clock.now());
  if (resolved.errors) throw validationError(resolved.errors);
  const { actor } = authz;
  return {
    scope: {
      zoneId: zone.id,
      accountId: zone.accountId,
      // A key bound to one zone sees that zone's members' account events only.
      allAccountEvents: actor.isGlobalAdmin && actor.accountId === zone.accountId && actor.onlyZoneId == null,
    },
    filter: {
      ...resolved.range,
      userId: query.user_id,
      action: query.action,
      objectType: query.object_type,
      objectId: query.object_id,
    },
  };
}

/**
 * A page of the zone's events matching the filters; `size` counts them up to
 * {@link ACTIVITY_COUNT_CAP} (`size_capped` says there are more).
 * @throws AppError 400 for dates out of range.
 */
export async function listActivity(ctx: AppContext, authz: Authz, query: ActivityQuery): Promise<ActivityEventList> {
  const { scope, filter } = await scopeAndFilter(ctx, authz, query);
  const page = { offset: query.page * query.limit, limit: query.limit };
  const { rows, size } = await findActivity(ctx.db, scope, filter, page, ACTIVITY_COUNT_CAP + 1);
  return {
    data: rows.map(toEvent),
    size: Math.min(size, ACTIVITY_COUNT_CAP),
    size_capped: size > ACTIVITY_COUNT_CAP,
  };
}

const EXPORT_PAGE = 1000;

/** The activity log CSV's columns, in order (the download's and a scheduled report's). */
export const ACTIVITY_CSV_COLUMNS: [string, (e: ActivityEvent) => unknown][] = [
  ['Time (UTC)', (e) => e.created_at],
  ['Who', (e) => e.actor.name ?? (e.actor.type === 'system' ? 'system' : '')],
  ['Via', (e) => e.via],
  ['Action', (e) => e.action],
  ['Object type', (e) => e.object.type],
  ['Object ID', (e) => e.object.id],
  ['Object', (e) => e.object.name],
  ['Summary', (e) => e.summary],
  ['Client address', (e) => e.client_address],
];

/**
 * Every event matching the filters, in pages read by keyset as the CSV is written, so a
 * 90-day export of a busy zone streams with flat memory.
 */
export async function exportActivity(
  ctx: AppContext,
  authz: Authz,
  query: ActivityFilters,
): Promise<AsyncGenerator<ActivityEvent[], void, void>> {
  const { scope, filter } = await scopeAndFilter(ctx, authz, query);
  return activityPages(ctx, scope, filter);
}

/**
 * A zone's events in [`filter.from`, `filter.to`), newest first, in pages: the CSV export's
 * rows, and a scheduled report's (which checked its rights when it was saved).
 */
export function activityPages(
  ctx: Pick<AppContext, 'db'>,
  scope: ActivityScope,
  filter: ActivityFilter,
): AsyncGenerator<ActivityEvent[], void, void> {
  async function* pages(): AsyncGenerator<ActivityEvent[], void, void> {
    let after: { createdAt: Date; id: number } | null = null;
    for (;;) {
      const rows = await findActivityAfter(ctx.db, scope, filter, after, EXPORT_PAGE);
      if (!rows.length) return;
      const last = rows[rows.length - 1]!;
      after = { createdAt: last.createdAt, id: last.id };
      yield rows.map(toEvent);
      if (rows.length < EXPORT_PAGE) return;
    }
  }
  return pages();
}
