import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { policyInstallers } from '../../db/installers.schema';
import { policies } from '../../db/policies.schema';

export type InstallerRow = typeof policyInstallers.$inferSelect;

export async function insertInstaller(db: Db, row: typeof policyInstallers.$inferInsert): Promise<InstallerRow> {
  const [created] = await db.insert(policyInstallers).values(row).returning();
  return created!;
}

export async function findInstaller(db: Db, zoneId: number, id: string): Promise<InstallerRow | undefined> {
  const [row] = await db
    .select()
    .from(policyInstallers)
    .where(and(eq(policyInstallers.organizationId, zoneId), eq(policyInstallers.id, id)));
  return row;
}

export async function deleteInstallerRow(db: Db, zoneId: number, id: string): Promise<void> {
  await db
    .delete(policyInstallers)
    .where(and(eq(policyInstallers.organizationId, zoneId), eq(policyInstallers.id, id)));
}

/** How many rows of the zone still name these bytes (the file stays while any does). */
export async function countZoneRowsOfFile(db: Db, zoneId: number, sha256: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(policyInstallers)
    .where(and(eq(policyInstallers.organizationId, zoneId), eq(policyInstallers.sha256, sha256)));
  return row?.n ?? 0;
}

/** Names of the zone's policies (not deleted) whose configuration references the installer. */
export async function findPoliciesUsing(db: Db, zoneId: number, id: string): Promise<string[]> {
  const rows = await db
    .select({ name: policies.name })
    .from(policies)
    .where(
      and(
        eq(policies.organizationId, zoneId),
        isNull(policies.deletedAt),
        sql`${policies.configuration} -> 'installer' ->> 'id' = ${id}`,
      ),
    )
    .orderBy(policies.name);
  return rows.map((r) => r.name);
}
