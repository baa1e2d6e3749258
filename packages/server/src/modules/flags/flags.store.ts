import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { featureFlags, organizations } from '../../db/schema';

/** Overrides of one level: the account's (`zoneId` null) or one zone's. */
export async function findLevelFlags(db: Db, accountId: number, zoneId: number | null) {
  return db
    .select({ name: featureFlags.name, enabled: featureFlags.enabled })
    .from(featureFlags)
    .where(
      and(
        eq(featureFlags.accountId, accountId),
        zoneId === null ? isNull(featureFlags.organizationId) : eq(featureFlags.organizationId, zoneId),
      ),
    );
}

/**
 * Sets and removes overrides of one level in one transaction: `set` replaces the named
 * flags' rows, `remove` deletes them.
 */
export async function writeLevelFlags(
  db: Db,
  accountId: number,
  zoneId: number | null,
  change: { set: { name: string; enabled: boolean }[]; remove: string[] },
): Promise<void> {
  const names = [...change.set.map((s) => s.name), ...change.remove];
  if (!names.length) return;
  await db.transaction(async (tx) => {
    await tx
      .delete(featureFlags)
      .where(
        and(
          eq(featureFlags.accountId, accountId),
          zoneId === null ? isNull(featureFlags.organizationId) : eq(featureFlags.organizationId, zoneId),
          inArray(featureFlags.name, names),
        ),
      );
    if (change.set.length) {
      await tx
        .insert(featureFlags)
        .values(change.set.map((s) => ({ accountId, organizationId: zoneId, name: s.name, enabled: s.enabled })));
    }
  });
}

export async function setZonePlan(db: Db, zoneId: number, plan: (typeof organizations.$inferSelect)['plan']) {
  await db.update(organizations).set({ plan }).where(eq(organizations.id, zoneId));
}
