import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { activityLog } from '../../db/policies.schema';
import { queryRows } from '../../db/raw';
import { devicePresence, deviceSoftware, devices, serverGroups, users } from '../../db/schema';

/**
 * What data extracts read, page by page in a stable order (keyset paging, so a page costs
 * the same at the end as at the start): the zone's devices enrolled by the range's end, their
 * software, and its activity log. Read only; the patch history is overview.store.ts's.
 */

const iso = (d: Date) => d.toISOString();
type Num = string | number;

/** SQL: a live device of the zone enrolled before `to`. */
const inventoryWhere = (zoneId: number, to: Date) =>
  sql`d.organization_id = ${zoneId} and d.removed_at is null and d.created_at < ${iso(to)}::timestamptz`;

export type InventoryRow = {
  id: number;
  uuid: string;
  name: string;
  hostname: string;
  osFamily: string;
  osName: string;
  osVersion: string;
  arch: string;
  agentVersion: string;
  groupName: string;
  tags: string[];
  ipAddrs: string[];
  ipAddrsPrivate: string[];
  lastSeenAt: string | Date | null;
  needsReboot: boolean;
  pendingPatches: number;
  compliance: string;
  complianceReason: string;
  createdAt: string | Date;
};

export async function countInventory(db: Db, zoneId: number, to: Date): Promise<number> {
  const [row] = await queryRows<{ n: Num }>(
    db,
    sql`select count(*) as n from ${devices} d where ${inventoryWhere(zoneId, to)}`,
  );
  return Number(row?.n ?? 0);
}

/** Up to `limit` devices after device `afterId`, by id. */
export async function findInventoryAfter(
  db: Db,
  zoneId: number,
  to: Date,
  afterId: number,
  limit: number,
): Promise<InventoryRow[]> {
  return queryRows<InventoryRow>(
    db,
    sql`select d.id, d.uuid, coalesce(d.custom_name, d.hostname) as name, d.hostname, d.os_family as "osFamily",
               d.os_name as "osName", d.os_version as "osVersion", d.arch, d.agent_version as "agentVersion",
               g.name as "groupName", d.tags, d.ip_addrs as "ipAddrs", d.ip_addrs_private as "ipAddrsPrivate",
               pr.last_seen_at as "lastSeenAt", d.needs_reboot as "needsReboot", d.pending_patches as "pendingPatches",
               d.compliance, d.compliance_reason as "complianceReason", d.created_at as "createdAt"
          from ${devices} d
          join ${serverGroups} g on g.id = d.group_id
          left join ${devicePresence} pr on pr.device_id = d.id
         where ${inventoryWhere(zoneId, to)} and d.id > ${afterId}
         order by d.id
         limit ${limit}`,
  );
}

/** Ids of up to `limit` devices after `afterId`, by id (the software extract walks devices, then their software). */
export async function findInventoryIdsAfter(
  db: Db,
  zoneId: number,
  to: Date,
  afterId: number,
  limit: number,
): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select d.id from ${devices} d where ${inventoryWhere(zoneId, to)} and d.id > ${afterId} order by d.id limit ${limit}`,
  );
  return rows.map((r) => r.id);
}

export async function countSoftware(db: Db, zoneId: number, to: Date): Promise<number> {
  const [row] = await queryRows<{ n: Num }>(
    db,
    sql`select count(*) as n from ${deviceSoftware} s join ${devices} d on d.id = s.device_id
         where ${inventoryWhere(zoneId, to)}`,
  );
  return Number(row?.n ?? 0);
}

export type SoftwareRow = {
  deviceId: number;
  deviceName: string;
  hostname: string;
  osFamily: string;
  name: string;
  version: string;
  source: string | null;
  arch: string | null;
};

/** The installed software of these devices, by device and name. */
export async function findSoftwareOf(db: Db, deviceIds: number[]): Promise<SoftwareRow[]> {
  if (!deviceIds.length) return [];
  return queryRows<SoftwareRow>(
    db,
    sql`select s.device_id as "deviceId", coalesce(d.custom_name, d.hostname) as "deviceName", d.hostname,
               d.os_family as "osFamily", s.name, s.version, s.source, s.arch
          from ${deviceSoftware} s join ${devices} d on d.id = s.device_id
         where s.device_id in (${sql.join(
           deviceIds.map((id) => sql`${id}`),
           sql`, `,
         )})
         order by s.device_id, s.name, s.id`,
  );
}

const activityWhere = (zoneId: number, range: { from: Date; to: Date }) =>
  sql`a.organization_id = ${zoneId} and a.created_at >= ${iso(range.from)}::timestamptz
      and a.created_at < ${iso(range.to)}::timestamptz`;

export async function countActivity(db: Db, zoneId: number, range: { from: Date; to: Date }): Promise<number> {
  const [row] = await queryRows<{ n: Num }>(
    db,
    sql`select count(*) as n from ${activityLog} a where ${activityWhere(zoneId, range)}`,
  );
  return Number(row?.n ?? 0);
}

export type ActivityRow = {
  id: number;
  createdAt: string | Date;
  userEmail: string | null;
  via: string;
  action: string;
  objectType: string;
  objectId: string | null;
  details: unknown;
};

/** Up to `limit` events of the range after the keyset `(created_at, id)`, oldest first. */
export async function findActivityAfter(
  db: Db,
  zoneId: number,
  range: { from: Date; to: Date },
  after: { at: Date; id: number } | null,
  limit: number,
): Promise<ActivityRow[]> {
  const keyset = after ? sql` and (a.created_at, a.id) > (${iso(after.at)}::timestamptz, ${after.id})` : sql``;
  const rows = await queryRows<ActivityRow & { id: Num }>(
    db,
    sql`select a.id, a.created_at as "createdAt", u.email as "userEmail", a.via, a.action,
               a.object_type as "objectType", a.object_id as "objectId", a.details
          from ${activityLog} a left join ${users} u on u.id = a.user_id
         where ${activityWhere(zoneId, range)}${keyset}
         order by a.created_at, a.id
         limit ${limit}`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
