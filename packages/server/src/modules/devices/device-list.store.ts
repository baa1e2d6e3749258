/**
 * The zone's device list: filters, sorts, pages and counts, over 100,000 devices in a zone
 * within the console's budget. The whole zone in an indexed order is one statement (the page's
 * ids off the index, then their rows with group and presence); a filtered list first gathers
 * its matches (the page's ids and the count), then reads those rows. A page's rows come as
 * `DeviceListRow`s or, for the list's route, as the API's JSON text (decision 0023).
 */
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { PAGE_SIZE_OPTIONS } from '@patchwell/core/constants';
import type { DeviceSortField } from '@patchwell/core/devices/devices.schema';
import type { OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import type { Db } from '../../db/client';
import { literal, queryJsonText, queryRows, tableRowFromJson } from '../../db/raw';
import { devicePatches, devicePresence, deviceSoftware, devices, serverGroups } from '../../db/devices.schema';
import { likeEscape, type DeviceRow } from './devices.store';
import { onlineAt } from './presence.store';
import { isoCellSql } from '../reports/extract-sources.store';

export type DeviceListRow = DeviceRow & {
  groupName: string;
  isOnline: boolean;
  lastSeenAt: Date | null;
  uptimeS: number | null;
};

export type DeviceFilter = {
  group?: number;
  osFamily?: OsFamily;
  status?: 'online' | 'offline';
  needsReboot?: boolean;
  compliance?: 'compliant' | 'pending' | 'needs_attention';
  tag?: string;
  /** Only devices with a critical patch pending published more than this many whole days ago. */
  criticalOlderThan?: number;
  search?: string;
  ids?: number[];
  /** Only devices with this package installed or pending (exact name). */
  hasPackage?: string;
};

export type DeviceSort = { field: DeviceSortField; dir: 'asc' | 'desc' };

const SORT_KEYS: Record<DeviceSortField, SQL> = {
  name: sql`lower(coalesce(${devices.customName}, ${devices.hostname}))`,
  hostname: sql`lower(${devices.hostname})`,
  os_family: sql`${devices.osFamily}`,
  os_name: sql`${devices.osName}`,
  os_version: sql`${devices.osVersion}`,
  agent_version: sql`${devices.agentVersion}`,
  last_seen_at: sql`${devicePresence.lastSeenAt}`,
  create_time: sql`${devices.createdAt}`,
  pending_patches: sql`${devices.pendingPatches}`,
  compliance: sql`${devices.compliance}`,
  needs_reboot: sql`${devices.needsReboot}`,
  group_name: sql`lower(${serverGroups.name})`,
};

/** Orders an index of the zone's live devices keeps (devices_org_{name,hostname,created}_idx). */
const INDEXED_SORTS: ReadonlySet<DeviceSortField> = new Set(['name', 'hostname', 'create_time']);

/**
 * Nulls (a device that never checked in) come first ascending and last descending. Said only
 * for the nullable key: the planner matches an index only on the exact null order.
 */
function direction(sort: DeviceSort): SQL {
  if (sort.field === 'last_seen_at') return sort.dir === 'asc' ? sql`asc nulls first` : sql`desc nulls last`;
  return sort.dir === 'asc' ? sql`asc` : sql`desc`;
}

function filterWhere(zoneId: number, f: DeviceFilter, now: Date): SQL {
  const parts: (SQL | undefined)[] = [eq(devices.organizationId, zoneId), isNull(devices.removedAt)];
  if (f.group !== undefined) parts.push(eq(devices.groupId, f.group));
  if (f.osFamily) parts.push(eq(devices.osFamily, f.osFamily));
  // Online: gatherMatches joins the online presence rows. Offline: no online presence row,
  // an anti-join that hashes only the online rows, where a left join would hash them all.
  if (f.status === 'offline') {
    parts.push(
      sql`not exists (select 1 from ${devicePresence} op where op.device_id = ${devices.id} and op.online_until > ${now.toISOString()}::timestamptz)`,
    );
  }
  if (f.needsReboot !== undefined) parts.push(eq(devices.needsReboot, f.needsReboot));
  if (f.compliance) parts.push(eq(devices.compliance, f.compliance));
  if (f.tag) parts.push(sql`${devices.tags} @> array[${f.tag}]::text[]`);
  if (f.criticalOlderThan !== undefined) {
    // Older than N whole days: published at least N + 1 days before now (the dashboard's count, countMissingCritical).
    const cutoff = new Date(now.getTime() - (f.criticalOlderThan + 1) * 86_400_000).toISOString();
    parts.push(
      sql`exists (select 1 from ${devicePatches} p where p.device_id = ${devices.id} and p.severity = 'critical' and p.published_at <= ${cutoff}::timestamptz)`,
    );
  }
  if (f.ids) parts.push(inArray(devices.id, f.ids));
  if (f.hasPackage !== undefined) {
    parts.push(
      sql`(exists (select 1 from ${deviceSoftware} s where s.device_id = ${devices.id} and s.name = ${f.hasPackage}) or exists (select 1 from ${devicePatches} p where p.device_id = ${devices.id} and p.name = ${f.hasPackage}))`,
    );
  }
  const search = f.search?.trim();
  if (search) {
    // Name, hostname and addresses as one lower-case text, the expression the trigram index
    // `devices_search_trgm_idx` is built on (migration 20261121181747_device_search_trigram).
    const pattern = `%${likeEscape(search.toLowerCase())}%`;
    parts.push(
      sql`device_search_text(${devices.customName}, ${devices.hostname}, ${devices.ipAddrs}, ${devices.ipAddrsPrivate}) like ${pattern}`,
    );
  }
  return and(...parts)!;
}

function isUnfiltered(f: DeviceFilter): boolean {
  return (
    f.group === undefined &&
    !f.osFamily &&
    !f.status &&
    f.needsReboot === undefined &&
    !f.compliance &&
    !f.tag &&
    f.criticalOlderThan === undefined &&
    !f.search?.trim() &&
    !f.ids &&
    f.hasPackage === undefined
  );
}

type PageIds = { ids: number[]; size: number };

/** How many live devices the zone has (read from the small OS index). */
export async function countLiveDevices(db: Db, zoneId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(devices)
    .where(and(eq(devices.organizationId, zoneId), isNull(devices.removedAt)));
  return row?.n ?? 0;
}

/** Counts the zone's live devices: {@link countLiveDevices}, or a caller's cache of it. */
export type CountLive = (db: Db, zoneId: number) => Promise<number>;

/**
 * The whole zone in an indexed order, as one statement: the page's ids read off the index
 * (from the index alone, since check-ins leave device rows unchanged), then their rows. The
 * count comes from `countLive`; a page that is not full is the last one, and its end is the count.
 */
async function readIndexPage<T>(
  db: Db,
  zoneId: number,
  sort: DeviceSort,
  page: { offset: number; limit: number; countLive: CountLive; now: Date },
  read: RowsReader<T>,
): Promise<{ rows: T; size: number }> {
  const { offset, limit } = page;
  const dir = direction(sort);
  // The first page at one of the console's sizes, the page every visit opens, is written with
  // its limit in the text: its prepared statement then keeps one plan (readListRows). Other
  // pages pass them as values, so they add no statement per page number.
  const bounds = isFirstPage(offset, limit)
    ? sql.raw(`limit ${literal.int(limit)} offset 0`)
    : sql`limit ${limit} offset ${offset}`;
  const { rows, count } = await read(
    db,
    zoneId,
    sql`select ${devices.id} as id, ${SORT_KEYS[sort.field]} as k from ${devices}
         where ${devices.organizationId} = ${zoneId} and ${devices.removedAt} is null
         order by 2 ${dir}, 1 ${bounds}`,
    sql`k ${dir}, id`,
    page.now,
  );
  const isLastPage = count < limit && (count > 0 || offset === 0);
  const size = isLastPage ? offset + count : await page.countLive(db, zoneId);
  return { rows, size };
}

const isFirstPage = (offset: number, limit: number) =>
  offset === 0 && (PAGE_SIZE_OPTIONS as readonly number[]).includes(limit);

/** The matching devices' ids (`id`) and sort keys (`k`): the joins the filter and the sort need. */
function matchesWithKey(zoneId: number, filter: DeviceFilter, sort: DeviceSort, now: Date): SQL {
  const joins: SQL[] = [];
  if (filter.status === 'online') {
    joins.push(
      sql`join ${devicePresence} on ${devicePresence.deviceId} = ${devices.id} and ${devicePresence.onlineUntil} > ${now.toISOString()}::timestamptz`,
    );
  } else if (sort.field === 'last_seen_at') {
    joins.push(sql`left join ${devicePresence} on ${devicePresence.deviceId} = ${devices.id}`);
  }
  if (sort.field === 'group_name') joins.push(sql`join ${serverGroups} on ${serverGroups.id} = ${devices.groupId}`);
  return sql`select ${devices.id} as id, ${SORT_KEYS[sort.field]} as k
               from ${devices} ${sql.join(joins, sql` `)}
              where ${filterWhere(zoneId, filter, now)}`;
}

/**
 * A filtered list: the matching devices are read once, with their sort key, into a
 * materialized set that gives both the count and the page. Two statements (page, count)
 * would read them twice, and left to itself the planner may walk a whole name index
 * filtering by a search the trigram index answers directly.
 */
async function gatherMatches(
  db: Db,
  zoneId: number,
  filter: DeviceFilter,
  sort: DeviceSort,
  /** `limit` null: every match from `offset` on. */
  options: { offset: number; limit: number | null; now: Date },
): Promise<PageIds> {
  const dir = direction(sort);
  const rows = await queryRows<{ n: number | string; id: number | null }>(
    db,
    sql`
      with m as materialized (${matchesWithKey(zoneId, filter, sort, options.now)})
      select c.n, pg.id
        from (select count(*) as n from m) c
        left join lateral (select m.id, m.k from m order by m.k ${dir}, m.id limit ${options.limit} offset ${options.offset}) pg on true
       order by pg.k ${dir}, pg.id`,
  );
  return {
    ids: rows.flatMap((r) => (r.id === null ? [] : [Number(r.id)])),
    size: Number(rows[0]?.n ?? 0),
  };
}

type ListRowJson = {
  device: Record<string, unknown>;
  group_name: string;
  is_online: boolean;
  last_seen_at: string | null;
  uptime_s: number | null;
};

/**
 * Reads the zone's live devices whose ids `page` selects (a subquery of `id` and the order key
 * `k`), with group and presence, in `order`, as one JSON value (a 25-row page on PGlite: 2.2 ms
 * against 4.1 ms a column at a time): `rows` in the reader's form, `count` how many.
 */
type RowsReader<T> = (db: Db, zoneId: number, page: SQL, order: SQL, now: Date) => Promise<{ rows: T; count: number }>;

/** The page's rows joined to their group and presence, with `columns` selected (and `p.k` for the order). */
function pageSelect(zoneId: number, page: SQL, columns: SQL): SQL {
  return sql`select ${columns}, p.k, p.id
          from (${page}) p join ${devices} on ${devices.id} = p.id
          join ${serverGroups} on ${serverGroups.id} = ${devices.groupId}
          left join ${devicePresence} on ${devicePresence.deviceId} = ${devices.id}
         where ${devices.organizationId} = ${zoneId} and ${devices.removedAt} is null`;
}

/** The rows as `DeviceListRow`s. */
const readListRows: RowsReader<DeviceListRow[]> = async (db, zoneId, page, order, now) => {
  const { json, count } = await queryJsonText(
    db,
    pageSelect(
      zoneId,
      page,
      sql`row_to_json(${devices}) as device, ${serverGroups.name} as group_name, ${onlineAt(now)} as is_online,
          ${devicePresence.lastSeenAt} as last_seen_at, ${devicePresence.uptimeS} as uptime_s`,
    ),
    // A few shapes (the page's subquery and order): planned once per session (queryJsonText).
    { order, prepared: true },
  );
  // The device's own object takes the four fields: a spread would copy its 30 columns again.
  const rows = (JSON.parse(json) as ListRowJson[]).map((r) =>
    Object.assign(tableRowFromJson(devices, r.device), {
      groupName: r.group_name,
      isOnline: Boolean(r.is_online),
      lastSeenAt: r.last_seen_at === null ? null : new Date(r.last_seen_at),
      uptimeS: r.uptime_s === null ? null : Number(r.uptime_s),
    }),
  );
  return { rows, count };
};

/**
 * The rows as the API's list sends them (`ZDevice`), as JSON text the database wrote: the list's
 * route sends it on as it is, where the rows would otherwise be parsed, turned into objects twice
 * and checked and written again (half the server's time on a first page). The same fields as
 * `toDevice` (devices.service.ts) makes of a `DeviceListRow`; a test compares the two.
 */
const readApiRows: RowsReader<string> = async (db, zoneId, page, order, now) => {
  const { json, count } = await queryJsonText(
    db,
    pageSelect(
      zoneId,
      page,
      sql`json_build_object(
            'id', ${devices.id}, 'uuid', ${devices.uuid}, 'name', ${devices.hostname},
            'display_name', coalesce(nullif(${devices.customName}, ''), ${devices.hostname}),
            'custom_name', ${devices.customName}, 'hostname', ${devices.hostname},
            'os_family', ${devices.osFamily}, 'os_name', ${devices.osName}, 'os_version', ${devices.osVersion},
            'agent_version', ${devices.agentVersion}, 'server_group_id', ${devices.groupId},
            'group_name', ${serverGroups.name}, 'tags', ${devices.tags}, 'ip_addrs', ${devices.ipAddrs},
            'ip_addrs_private', ${devices.ipAddrsPrivate}, 'connected', ${onlineAt(now)},
            'last_seen_at', ${sql.raw(isoCellSql('device_presence.last_seen_at'))}, 'initializing', ${devices.lastInventoryAt} is null,
            'needs_reboot', ${devices.needsReboot}, 'pending_patches', ${devices.pendingPatches},
            'compliance', ${devices.compliance}, 'compliance_reason', ${devices.complianceReason},
            'create_time', ${sql.raw(isoCellSql('devices.created_at'))}, 'next_patch_time', null) as device`,
    ),
    // As readListRows: a few shapes, each planned once per session.
    { order, value: sql`q.device`, prepared: true },
  );
  return { rows: json, count };
};

/** The ids' page: `id` and their place in the list as `k`. */
const idsPage = (ids: number[]) => sql`select id, k from unnest(${sql.param(ids)}::int[]) with ordinality as i(id, k)`;

/** The zone's live devices among `ids`, with group and presence, in the order of `ids`. */
export async function findDevicesByIds(db: Db, zoneId: number, ids: number[], now: Date): Promise<DeviceListRow[]> {
  if (!ids.length) return [];
  return (await readListRows(db, zoneId, idsPage(ids), sql`k`, now)).rows;
}

/** A list row from a select of `device`, `groupName` and presenceFields. */
export function toListRow(r: {
  device: DeviceRow;
  groupName: string;
  isOnline: boolean;
  lastSeenAt: Date | null;
  uptimeS: number | null;
}): DeviceListRow {
  return {
    ...r.device,
    groupName: r.groupName,
    isOnline: Boolean(r.isOnline),
    lastSeenAt: r.lastSeenAt,
    uptimeS: r.uptimeS,
  };
}

type PageOptions = { sort: DeviceSort; offset: number; limit: number; now: Date; countLive?: CountLive };

/** One page of the zone's devices matching `filter`, read by `read`, and how many match. */
async function findPage<T>(
  db: Db,
  zoneId: number,
  filter: DeviceFilter,
  options: PageOptions,
  read: RowsReader<T>,
  /** The reader's form of no rows: a filter that matches nothing reads no page. */
  none: T,
): Promise<{ rows: T; size: number }> {
  if (isUnfiltered(filter) && INDEXED_SORTS.has(options.sort.field)) {
    return readIndexPage(
      db,
      zoneId,
      options.sort,
      { ...options, countLive: options.countLive ?? countLiveDevices },
      read,
    );
  }
  const page = await gatherMatches(db, zoneId, filter, options.sort, options);
  if (!page.ids.length) return { rows: none, size: page.size };
  return { rows: (await read(db, zoneId, idsPage(page.ids), sql`k`, options.now)).rows, size: page.size };
}

/** One page of the zone's devices matching `filter`, and how many match. */
export function findDevices(
  db: Db,
  zoneId: number,
  filter: DeviceFilter,
  options: PageOptions,
): Promise<{ rows: DeviceListRow[]; size: number }> {
  return findPage(db, zoneId, filter, options, readListRows, []);
}

/** {@link findDevices} with the rows as the JSON text of the API's list (`ZDevice[]`). */
export function findDevicesAsApiJson(
  db: Db,
  zoneId: number,
  filter: DeviceFilter,
  options: PageOptions,
): Promise<{ rows: string; size: number }> {
  return findPage(db, zoneId, filter, options, readApiRows, '[]');
}

/**
 * Every matching device's id, in the list's order: the CSV export reads them once, then the
 * rows page by page, so it reads the matches once instead of once per page, and a device
 * changing meanwhile neither moves between pages nor appears twice. The ids come as one text
 * value: 100,000 rows would each become a JavaScript object (and cross from PGlite's
 * WebAssembly one value at a time).
 */
export async function findAllDeviceIds(
  db: Db,
  zoneId: number,
  filter: DeviceFilter,
  options: { sort: DeviceSort; now: Date },
): Promise<number[]> {
  const [row] = await queryRows<{ ids: string | null }>(
    db,
    sql`select string_agg(m.id::text, ',' order by m.k ${direction(options.sort)}, m.id) as ids
          from (${matchesWithKey(zoneId, filter, options.sort, options.now)}) m`,
  );
  return row?.ids ? row.ids.split(',').map(Number) : [];
}

/** One device of the zone, not removed (undefined for another zone's). */
export async function findDevice(db: Db, zoneId: number, id: number, now: Date): Promise<DeviceListRow | undefined> {
  return (await findDevicesByIds(db, zoneId, [id], now))[0];
}
