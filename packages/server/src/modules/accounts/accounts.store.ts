import { count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, banners, featureFlags, organizations, userZoneRoles, users } from '../../db/schema';

export async function countAccounts(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(accounts);
  return row?.n ?? 0;
}

export async function emailExists(db: Db, email: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return row !== undefined;
}

/** Serialises account creation at start-up across nodes (held until the transaction ends). */
export async function lockForBootstrap(db: Db): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(7461010)`);
}

export async function insertAccount(db: Db, row: typeof accounts.$inferInsert) {
  const [created] = await db.insert(accounts).values(row).returning();
  return created!;
}

export async function insertZone(db: Db, row: typeof organizations.$inferInsert) {
  const [created] = await db.insert(organizations).values(row).returning();
  return created!;
}

export async function insertUser(db: Db, row: typeof users.$inferInsert) {
  const [created] = await db.insert(users).values(row).returning();
  return created!;
}

export async function insertZoneRole(db: Db, row: typeof userZoneRoles.$inferInsert): Promise<void> {
  await db.insert(userZoneRoles).values(row);
}

export async function insertBanner(db: Db, row: typeof banners.$inferInsert): Promise<void> {
  await db.insert(banners).values(row);
}

/** Turns feature flags on for a whole account. */
export async function enableAccountFeatures(db: Db, accountId: number, names: string[]): Promise<void> {
  if (!names.length) return;
  await db.insert(featureFlags).values(names.map((name) => ({ accountId, organizationId: null, name, enabled: true })));
}

/** Password hash and status of a user by e-mail (start-up checks the demo sign-in still works). */
export async function findCredentials(db: Db, email: string) {
  const [row] = await db
    .select({ passwordHash: users.passwordHash, status: users.status, locked: users.locked })
    .from(users)
    .where(eq(users.email, email));
  return row;
}

/** Marks the account's quick start guide completed; true when this call did it (it was not yet). */
export async function markQuickStartCompleted(db: Db, accountId: number): Promise<boolean> {
  const rows = await db
    .update(accounts)
    .set({ completedQsg: true })
    .where(sql`${accounts.id} = ${accountId} and not ${accounts.completedQsg}`)
    .returning({ id: accounts.id });
  return rows.length > 0;
}

export async function isQuickStartCompleted(db: Db, accountId: number): Promise<boolean> {
  const [row] = await db.select({ done: accounts.completedQsg }).from(accounts).where(eq(accounts.id, accountId));
  return row?.done ?? false;
}
