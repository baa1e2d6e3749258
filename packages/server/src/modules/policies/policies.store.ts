import { and, asc, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  policies,
  policyCloneJobs,
  policyScheduleSlots,
  type PolicyStatus,
  type PolicyType,
} from '../../db/policies.schema';
import { organizations } from '../../db/schema';
import { devices, serverGroups } from '../../db/devices.schema';
import type { Tx } from '../../engine/engine.store';
import { standingCount } from '../devices/compliance.store';
import { likeEscape } from '../devices/devices.store';

type Exec = Db | Tx;

export type PolicyRow = typeof policies.$inferSelect;
export type PolicyListRow = PolicyRow & {
  serverCount: number;
  nextRun: Date | null;
  compliant: number;
  nonCompliant: number;
  pending: number;
};

export const POLICY_SORT_FIELDS = ['name', 'policy_type_name', 'status', 'create_time', 'next_run_time'] as const;
export type PolicySortField = (typeof POLICY_SORT_FIELDS)[number];

const serverCount = sql<number>`(select count(*) from ${devices} d
   where d.organization_id = "policies"."organization_id" and d.removed_at is null
     and d.group_id = any("policies"."server_groups"))`.mapWith(Number);
const nextRun = sql<Date | null>`(select min(s.next_run_at) from ${policyScheduleSlots} s where s.policy_id = "policies"."id")`;

const SORTS: Record<PolicySortField, SQL> = {
  name: sql`lower(${policies.name})`,
  policy_type_name: sql`${policies.type}`,
  status: sql`${policies.status}`,
  create_time: sql`${policies.createdAt}`,
  next_run_time: nextRun,
};

export type PolicyFilter = { types: PolicyType[]; status?: PolicyStatus; search?: string; ids?: number[] };

function where(zoneId: number, f: PolicyFilter): SQL {
  const search = f.search?.trim();
  return and(
    eq(policies.organizationId, zoneId),
    isNull(policies.deletedAt),
    inArray(policies.type, f.types.length ? f.types : ['none' as PolicyType]),
    f.status ? eq(policies.status, f.status) : undefined,
    f.ids ? inArray(policies.id, f.ids.length ? f.ids : [-1]) : undefined,
    search ? ilike(policies.name, `%${likeEscape(search)}%`) : undefined,
  )!;
}

/** One page of the zone's policies with their device count, next run and standing counts. */
export async function findPolicies(
  db: Db,
  zoneId: number,
  filter: PolicyFilter,
  options: { sort: { field: PolicySortField; dir: 'asc' | 'desc' }; offset: number; limit: number },
): Promise<{ rows: PolicyListRow[]; size: number }> {
  const w = where(zoneId, filter);
  const column = SORTS[options.sort.field];
  const order = options.sort.dir === 'asc' ? sql`${column} asc nulls last` : sql`${column} desc nulls last`;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        policy: policies,
        serverCount,
        nextRun,
        compliant: standingCount('compliant'),
        nonCompliant: standingCount('needs_attention'),
        pending: standingCount('pending'),
      })
      .from(policies)
      .where(w)
      .orderBy(order, asc(policies.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(policies)
      .where(w),
  ]);
  return {
    rows: rows.map((r) => ({
      ...r.policy,
      serverCount: r.serverCount,
      nextRun: r.nextRun ? new Date(r.nextRun) : null,
      compliant: r.compliant,
      nonCompliant: r.nonCompliant,
      pending: r.pending,
    })),
    size: total?.n ?? 0,
  };
}

/** One live policy of the zone (undefined for another zone's or a deleted one). */
export async function findPolicy(db: Db, zoneId: number, id: number): Promise<PolicyRow | undefined> {
  const [row] = await db
    .select()
    .from(policies)
    .where(and(eq(policies.organizationId, zoneId), eq(policies.id, id), isNull(policies.deletedAt)))
    .limit(1);
  return row;
}

export async function findPolicyListRow(db: Db, zoneId: number, id: number): Promise<PolicyListRow | undefined> {
  const { rows } = await findPolicies(
    db,
    zoneId,
    { types: ['patch', 'custom', 'required_software'], ids: [id] },
    { sort: { field: 'name', dir: 'asc' }, offset: 0, limit: 1 },
  );
  return rows[0];
}

export async function insertPolicy(db: Exec, row: typeof policies.$inferInsert): Promise<PolicyRow> {
  const [created] = await db.insert(policies).values(row).returning();
  return created!;
}

export async function updatePolicy(
  db: Exec,
  zoneId: number,
  id: number,
  patch: Partial<typeof policies.$inferInsert>,
): Promise<PolicyRow | undefined> {
  const [row] = await db
    .update(policies)
    .set(patch)
    .where(and(eq(policies.organizationId, zoneId), eq(policies.id, id), isNull(policies.deletedAt)))
    .returning();
  return row;
}

/** Whether another live policy of the zone has this name (ignoring case). */
export async function isPolicyNameTaken(db: Db, zoneId: number, name: string, exceptId?: number): Promise<boolean> {
  const rows = await db
    .select({ id: policies.id })
    .from(policies)
    .where(
      and(
        eq(policies.organizationId, zoneId),
        isNull(policies.deletedAt),
        sql`lower(${policies.name}) = lower(${name})`,
      ),
    );
  return rows.some((r) => r.id !== exceptId);
}

/** Ids among `ids` that are groups of the zone. */
export async function findZoneGroupIds(db: Db, zoneId: number, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: serverGroups.id })
    .from(serverGroups)
    .where(and(eq(serverGroups.organizationId, zoneId), inArray(serverGroups.id, ids)));
  return rows.map((r) => r.id);
}

/**
 * Inside a policy's save: key-share locks the zone's groups among `ids` until the commit,
 * so a concurrent group delete waits and then removes the id from the saved targets.
 * @returns how many of `ids` are groups of the zone.
 */
export async function lockZoneGroups(tx: Tx, zoneId: number, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const rows = await tx
    .select({ id: serverGroups.id })
    .from(serverGroups)
    .where(and(eq(serverGroups.organizationId, zoneId), inArray(serverGroups.id, ids)))
    .for('key share');
  return rows.length;
}

/** Per-policy standing counts of the zone's live policies (`/api/policystats`). */
export async function policyStats(db: Db, zoneId: number, types: PolicyType[]) {
  return db
    .select({
      id: policies.id,
      name: policies.name,
      type: policies.type,
      compliant: standingCount('compliant'),
      nonCompliant: standingCount('needs_attention'),
      pending: standingCount('pending'),
    })
    .from(policies)
    .where(where(zoneId, { types }))
    .orderBy(asc(sql`lower(${policies.name})`), asc(policies.id));
}

// ---------------------------------------------------------------- clone jobs

export type CloneJobRow = typeof policyCloneJobs.$inferSelect;

export async function insertCloneJob(db: Db, row: typeof policyCloneJobs.$inferInsert): Promise<CloneJobRow> {
  const [created] = await db.insert(policyCloneJobs).values(row).returning();
  return created!;
}

export async function updateCloneJob(db: Db, id: string, patch: Partial<CloneJobRow>): Promise<void> {
  await db.update(policyCloneJobs).set(patch).where(eq(policyCloneJobs.id, id));
}

export async function findCloneJob(db: Db, zoneId: number, id: string): Promise<CloneJobRow | undefined> {
  const [row] = await db
    .select()
    .from(policyCloneJobs)
    .where(and(eq(policyCloneJobs.organizationId, zoneId), eq(policyCloneJobs.id, id)))
    .limit(1);
  return row;
}

/** Zones with these uuids (any account: the caller's rights are checked per zone). */
export async function findZonesByUuid(db: Db, uuids: string[]) {
  if (!uuids.length) return [];
  return db
    .select({ id: organizations.id, uuid: organizations.uuid })
    .from(organizations)
    .where(inArray(organizations.uuid, uuids));
}
