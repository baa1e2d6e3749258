import { and, count, desc, eq, notInArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { BatchStatus } from '@patchwell/core/remediation/batches.schema';
import type { Db } from '../../../db/client';
import { queryRowsAsJson } from '../../../db/raw';
import { remediationBatches, remediationSolutions } from '../../../db/remediation.schema';
import { users } from '../../../db/schema';
import { devices } from '../../../db/devices.schema';

/**
 * With batch-findings.store.ts, the only SQL that writes `remediation_batches`,
 * `remediation_findings` and `remediation_solutions`: here the batches, their solutions and
 * what a build reads (the zone's devices and their pending patches, in one statement each: a
 * 20,000-row file never costs a query per row).
 */

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Exec = Db | Tx;
export type BatchRow = typeof remediationBatches.$inferSelect;
export type NewBatch = typeof remediationBatches.$inferInsert;
export type SolutionRow = typeof remediationSolutions.$inferSelect;
export type NewSolution = typeof remediationSolutions.$inferInsert;

/** Rows of a raw statement, on a connection or in a transaction (both drivers answer `{ rows }`). */
export async function rowsOf<T>(exec: Exec, query: SQL): Promise<T[]> {
  const result = (await exec.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Worst first, for ordering by a text severity column. */
export const severityRank = (column: SQL) =>
  sql`(case ${column} when 'critical' then 4 when 'high' then 3 when 'medium' then 2 when 'low' then 1 else 0 end)`;

export async function insertBatch(exec: Exec, values: NewBatch): Promise<BatchRow> {
  const [row] = await exec.insert(remediationBatches).values(values).returning();
  return row!;
}

/** Ids of batches still building, oldest first (a node that died left them so). */
export async function findBuildingBatchIds(exec: Exec, limit: number): Promise<number[]> {
  const rows = await exec
    .select({ id: remediationBatches.id })
    .from(remediationBatches)
    .where(eq(remediationBatches.status, 'building'))
    .orderBy(remediationBatches.createdAt, remediationBatches.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * The batch, locked for its build, while it is still building; undefined when it is not, or
 * when another node holds it (that node is building it).
 */
export async function lockBuildingBatch(tx: Tx, batchId: number): Promise<BatchRow | undefined> {
  const [row] = await tx
    .select()
    .from(remediationBatches)
    .where(and(eq(remediationBatches.id, batchId), eq(remediationBatches.status, 'building')))
    .for('update', { skipLocked: true });
  return row;
}

export type DeviceToMatch = {
  id: number;
  hostname: string;
  fqdn: string | null;
  ip_addrs_private: string[];
  os_family: string;
};

/** The zone's live devices with the names and private addresses a scanner may know them by. */
export async function findZoneDevicesToMatch(exec: Exec, zoneId: number): Promise<DeviceToMatch[]> {
  return queryRowsAsJson<DeviceToMatch>(
    exec as Db,
    sql`select d.id, d.hostname, dd.detail->>'fqdn' as fqdn, d.ip_addrs_private, d.os_family
        from ${devices} d left join device_details dd on dd.device_id = d.id
        where d.organization_id = ${zoneId} and d.removed_at is null`,
  );
}

export type PatchFixing = { device_id: number; name: string; severity: string; cve: string };

/**
 * The pending patches fixing each (device, CVE) pair, read through the devices' patch index:
 * the cost grows with the devices the file names, not with the zone's whole inventory.
 */
export async function findPatchesFixing(
  exec: Exec,
  pairs: { deviceIds: number[]; cves: string[] },
): Promise<PatchFixing[]> {
  if (pairs.deviceIds.length === 0) return [];
  return queryRowsAsJson<PatchFixing>(
    exec as Db,
    sql`with pair as (
          select unnest(${sql.param(pairs.deviceIds)}::int[]) as device_id, unnest(${sql.param(pairs.cves)}::text[]) as cve
        )
        select pair.device_id, pair.cve, p.name, p.severity
        from pair join device_patches p on p.device_id = pair.device_id and pair.cve = any(p.cves)`,
  );
}

/**
 * Of `cves`, those a live device of the zone has a pending patch for. The overlap reads the
 * patches' CVE index (`device_patches_cves_idx`): the cost grows with the patches that fix one
 * of `cves`, not with the zone's whole inventory (545 ms → 2 ms for 10,000 devices).
 */
export async function findZoneCvesWithPatches(exec: Exec, zoneId: number, cves: string[]): Promise<Set<string>> {
  if (cves.length === 0) return new Set();
  const rows = await rowsOf<{ cve: string }>(
    exec,
    sql`with wanted as (select ${sql.param(cves)}::text[] as list)
        select distinct c.cve from wanted, device_patches p
        join ${devices} d on d.id = p.device_id and d.organization_id = ${zoneId} and d.removed_at is null
        cross join lateral unnest(p.cves) as c(cve)
        where p.cves && wanted.list and c.cve = any(wanted.list)`,
  );
  return new Set(rows.map((r) => r.cve));
}

export async function deleteSolutions(exec: Exec, batchId: number): Promise<void> {
  await exec.delete(remediationSolutions).where(eq(remediationSolutions.batchId, batchId));
}

export type StoredSolution = Pick<SolutionRow, 'id' | 'kind' | 'patchName' | 'workletId'>;

/**
 * Stores a build's solutions, all in one JSON parameter (their device lists and each device's
 * patches are most of it); answers what names each (the device lists are not read back).
 */
export async function insertSolutions(exec: Exec, rows: NewSolution[]): Promise<StoredSolution[]> {
  if (rows.length === 0) return [];
  const json = JSON.stringify(
    rows.map((r) => ({
      batch_id: r.batchId,
      organization_id: r.organizationId,
      kind: r.kind,
      patch_name: r.patchName ?? null,
      worklet_id: r.workletId ?? null,
      title: r.title,
      severity: r.severity,
      cves: r.cves ?? [],
      device_ids: r.deviceIds ?? [],
      device_patches: r.devicePatches ?? {},
    })),
  );
  const stored = await rowsOf<{
    id: number;
    kind: SolutionRow['kind'];
    patch_name: string | null;
    worklet_id: string | null;
  }>(
    exec,
    sql`insert into ${remediationSolutions} (batch_id, organization_id, kind, patch_name, worklet_id, title, severity,
          cves, device_ids, device_patches)
        select batch_id, organization_id, kind, patch_name, worklet_id, title, severity, cves, device_ids, device_patches
          from jsonb_to_recordset(${json}::jsonb) as x(batch_id int, organization_id int, kind text, patch_name text,
            worklet_id text, title text, severity text, cves text[], device_ids int[], device_patches jsonb)
        returning id, kind, patch_name, worklet_id`,
  );
  return stored.map((r) => ({ id: Number(r.id), kind: r.kind, patchName: r.patch_name, workletId: r.worklet_id }));
}

export async function updateBatch(
  exec: Exec,
  batchId: number,
  values: Partial<
    Pick<NewBatch, 'status' | 'error' | 'statistics' | 'impactedDeviceCount' | 'decidedBy' | 'decidedAt'>
  > & {
    updatedAt: Date;
  },
): Promise<void> {
  await exec.update(remediationBatches).set(values).where(eq(remediationBatches.id, batchId));
}

const creator = alias(users, 'creator');
const decider = alias(users, 'decider');

export type BatchListRow = BatchRow & { createdByEmail: string | null; decidedByEmail: string | null };

function selectBatches(exec: Exec) {
  return exec
    .select({ batch: remediationBatches, createdByEmail: creator.email, decidedByEmail: decider.email })
    .from(remediationBatches)
    .leftJoin(creator, eq(creator.id, remediationBatches.createdBy))
    .leftJoin(decider, eq(decider.id, remediationBatches.decidedBy));
}

const flatten = (r: { batch: BatchRow; createdByEmail: string | null; decidedByEmail: string | null }) => ({
  ...r.batch,
  createdByEmail: r.createdByEmail,
  decidedByEmail: r.decidedByEmail,
});

/** A page of the zone's batches, newest first. */
export async function findBatches(
  db: Db,
  zoneId: number,
  filter: { statusNotIn?: BatchStatus[]; type?: string },
  page: { offset: number; limit: number },
): Promise<{ rows: BatchListRow[]; size: number }> {
  const where = and(
    eq(remediationBatches.organizationId, zoneId),
    filter.statusNotIn?.length ? notInArray(remediationBatches.status, filter.statusNotIn) : undefined,
    filter.type ? eq(remediationBatches.type, filter.type as BatchRow['type']) : undefined,
  );
  const rows = await selectBatches(db)
    .where(where)
    .orderBy(desc(remediationBatches.createdAt), desc(remediationBatches.id))
    .offset(page.offset)
    .limit(page.limit);
  const [total] = await db.select({ n: count() }).from(remediationBatches).where(where);
  return { rows: rows.map(flatten), size: total?.n ?? 0 };
}

/** The zone's batch `batchId`; `lock` takes its row for a decision in `exec`'s transaction. */
export async function findBatch(
  exec: Exec,
  zoneId: number,
  batchId: number,
  options: { lock?: boolean } = {},
): Promise<BatchListRow | undefined> {
  const query = selectBatches(exec).where(
    and(eq(remediationBatches.id, batchId), eq(remediationBatches.organizationId, zoneId)),
  );
  const [row] = options.lock ? await query.for('update', { of: remediationBatches }) : await query;
  return row ? flatten(row) : undefined;
}

/** A page of the batch's solutions, worst first, then the widest. */
export async function findSolutions(
  db: Db,
  batchId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: SolutionRow[]; size: number }> {
  const rows = await db
    .select()
    .from(remediationSolutions)
    .where(eq(remediationSolutions.batchId, batchId))
    .orderBy(
      sql`${severityRank(sql`${remediationSolutions.severity}`)} desc`,
      sql`cardinality(${remediationSolutions.deviceIds}) desc`,
      remediationSolutions.id,
    )
    .offset(page.offset)
    .limit(page.limit);
  const [total] = await db
    .select({ n: count() })
    .from(remediationSolutions)
    .where(eq(remediationSolutions.batchId, batchId));
  return { rows, size: total?.n ?? 0 };
}

/** Every solution of the batch (accepting turns each into a task). */
export async function findAllSolutions(exec: Exec, batchId: number): Promise<SolutionRow[]> {
  return exec
    .select()
    .from(remediationSolutions)
    .where(eq(remediationSolutions.batchId, batchId))
    .orderBy(remediationSolutions.id);
}
