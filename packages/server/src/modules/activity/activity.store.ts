import { and, count, desc, eq, gte, inArray, isNull, like, lt, or, sql, type SQL } from 'drizzle-orm';
import type { ActivityDetails, ActivityVia } from '@patchwell/core/activity/activity.schema';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { activityLog } from '../../db/activity.schema';
import { organizations, userZoneRoles, users } from '../../db/schema';
import { devices } from '../../db/devices.schema';
import type { Tx } from '../commands/commands.store';

/** The only SQL that writes and reads `activity_log`. */

export type ActivityRow = typeof activityLog.$inferSelect;

export type ActivityEntry = {
  /** The zone; null for an account-level event (then `accountId` is required). */
  organizationId: number | null;
  /** Taken from the zone when omitted. */
  accountId?: number | null;
  userId: number | null;
  apiKeyId?: number | null;
  deviceId?: number | null;
  /** Taken from the user's e-mail (or the device's name) when omitted. */
  actorName?: string | null;
  via: ActivityVia;
  action: string;
  objectType: string;
  objectId: string | null;
  objectName?: string | null;
  details: ActivityDetails;
  clientAddress?: string | null;
  createdAt: Date;
};

// Who and where, in words, read in the same statement as the insert: no extra round trip per event.
function valuesOf(entry: ActivityEntry) {
  const deviceName = (id: number) =>
    sql<string>`(select coalesce(${devices.customName}, ${devices.hostname}) from ${devices} where ${devices.id} = ${id})`;
  return {
    organizationId: entry.organizationId,
    accountId:
      entry.accountId ??
      (entry.organizationId === null
        ? null
        : sql<number>`(select ${organizations.accountId} from ${organizations} where ${organizations.id} = ${entry.organizationId})`),
    userId: entry.userId,
    apiKeyId: entry.apiKeyId ?? null,
    deviceId: entry.deviceId ?? null,
    actorName:
      entry.actorName ??
      (entry.userId !== null
        ? sql<string>`(select ${users.email} from ${users} where ${users.id} = ${entry.userId})`
        : entry.deviceId
          ? deviceName(entry.deviceId)
          : null),
    via: entry.via,
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId,
    // A device's name is read by id, so bulk actions on hundreds of devices need no lookup of their own.
    objectName:
      entry.objectName ??
      (entry.objectType === 'device' && entry.objectId && /^\d+$/.test(entry.objectId)
        ? deviceName(Number(entry.objectId))
        : null),
    details: entry.details,
    clientAddress: entry.clientAddress ?? null,
    createdAt: entry.createdAt,
  };
}

/** Writes one event, in the caller's transaction when it passes one. */
export async function insertActivity(exec: Db | Tx, entry: ActivityEntry): Promise<void> {
  await exec.insert(activityLog).values(valuesOf(entry));
}

/** Rows per statement: ~16 parameters a row stays under PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 2000;

/** Writes many events, one statement per 2,000 (a batch action, agent outcomes in bursts). */
export async function insertActivities(exec: Db | Tx, entries: ActivityEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += INSERT_CHUNK) {
    await exec.insert(activityLog).values(entries.slice(i, i + INSERT_CHUNK).map(valuesOf));
  }
}

/** Which events a zone's log shows, and to whom. */
export type ActivityScope = {
  zoneId: number;
  accountId: number;
  /** Whether account-level events of every user of the account are shown (global administrators). */
  allAccountEvents: boolean;
};

export type ActivityFilter = {
  from: Date;
  to: Date;
  userId?: number;
  action?: string;
  objectType?: string;
  objectId?: string;
};

/**
 * The two halves of a zone's log, each served by its own index in time order: the zone's
 * events, and the account-level events (sign-ins) of its members (a zone's administrator sees
 * their own members' sign-ins, never another zone's; the account's global administrator sees
 * every account-level event).
 */
function branchesOf(scope: ActivityScope, filter: ActivityFilter): [SQL, SQL] {
  const escaped = filter.action?.replace(/[\\%_]/g, (c) => `\\${c}`);
  const filters = and(
    gte(activityLog.createdAt, filter.from),
    lt(activityLog.createdAt, filter.to),
    filter.userId === undefined ? undefined : eq(activityLog.userId, filter.userId),
    filter.action === undefined
      ? undefined
      : or(eq(activityLog.action, filter.action), like(activityLog.action, `${escaped}.%`)),
    filter.objectType === undefined ? undefined : eq(activityLog.objectType, filter.objectType),
    filter.objectId === undefined ? undefined : eq(activityLog.objectId, filter.objectId),
  );
  const zone = and(eq(activityLog.organizationId, scope.zoneId), filters)!;
  const account = and(
    isNull(activityLog.organizationId),
    eq(activityLog.accountId, scope.accountId),
    scope.allAccountEvents
      ? undefined
      : inArray(
          activityLog.userId,
          sql`(select ${userZoneRoles.userId} from ${userZoneRoles} where ${userZoneRoles.organizationId} = ${scope.zoneId})`,
        ),
    filters,
  )!;
  return [zone, account];
}

const NEWEST_FIRST = [desc(activityLog.createdAt), desc(activityLog.id)];

/**
 * The newest `first` rows of both halves, merged: each half reads its index in order and stops
 * after `first` rows, so a page near the top of a million-event log reads a page, not the log.
 */
function newestOf(db: Db, scope: ActivityScope, filter: ActivityFilter, first: number, extra?: SQL) {
  const [zone, account] = branchesOf(scope, filter);
  const half = (where: SQL) =>
    db
      .select()
      .from(activityLog)
      .where(and(where, extra))
      .orderBy(...NEWEST_FIRST)
      .limit(first);
  return unionAll(half(zone), half(account)).orderBy(desc(activityLog.createdAt), desc(activityLog.id));
}

/**
 * A page of the scope's events, newest first, and how many match up to `countCap` (counting
 * half a million events of a busy month would cost more than the page itself).
 */
export async function findActivity(
  db: Db,
  scope: ActivityScope,
  filter: ActivityFilter,
  page: { offset: number; limit: number },
  countCap: number,
): Promise<{ rows: ActivityRow[]; size: number }> {
  const [zone, account] = branchesOf(scope, filter);
  const countUpTo = async (where: SQL) => {
    const matching = db
      .select({ one: sql`1` })
      .from(activityLog)
      .where(where)
      .limit(countCap)
      .as('matching');
    const [row] = await db.select({ n: count() }).from(matching);
    return row?.n ?? 0;
  };
  const [rows, zoneCount, accountCount] = await Promise.all([
    newestOf(db, scope, filter, page.offset + page.limit)
      .limit(page.limit)
      .offset(page.offset),
    countUpTo(zone),
    countUpTo(account),
  ]);
  return { rows, size: Math.min(countCap, zoneCount + accountCount) };
}

/** The next `limit` events after `after` (newest first, keyset), for the CSV export. */
export function findActivityAfter(
  db: Db,
  scope: ActivityScope,
  filter: ActivityFilter,
  after: { createdAt: Date; id: number } | null,
  limit: number,
): Promise<ActivityRow[]> {
  const keyset = after
    ? or(
        lt(activityLog.createdAt, after.createdAt),
        and(eq(activityLog.createdAt, after.createdAt), lt(activityLog.id, after.id)),
      )
    : undefined;
  return newestOf(db, scope, filter, limit, keyset).limit(limit);
}
