import { randomBytes } from 'node:crypto';
import type { Plan } from '@patchwell/core/rules/tiers';
import type { Db } from '../db/client';
import { accounts, organizations, userZoneRoles, users } from '../db/schema';
import { hashPassword } from '../modules/auth/passwords';

/** A password long enough for ZPassword and absent from the common list. */
export const TEST_PASSWORD = 'correct-horse-battery-staple-42';

const unique = () => randomBytes(4).toString('hex');
const hashes = new Map<string, Promise<string>>();
// Hashing costs ~85 ms on purpose; tests reuse one hash per distinct password.
const hashOnce = (password: string) => {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  return hashes.get(password)!;
};

export async function buildAccount(db: Db, overrides: Partial<typeof accounts.$inferInsert> = {}) {
  const [row] = await db
    .insert(accounts)
    .values({ name: `Account ${unique()}`, createdAt: new Date('2026-01-01T00:00:00Z'), ...overrides })
    .returning();
  return row!;
}

export async function buildZone(
  db: Db,
  input: { accountId: number; name?: string; plan?: Plan } & Partial<typeof organizations.$inferInsert>,
) {
  const [row] = await db
    .insert(organizations)
    .values({ name: `Zone ${unique()}`, createdAt: new Date('2026-01-01T00:00:00Z'), ...input })
    .returning();
  return row!;
}

export type BuildUserInput = Partial<Omit<typeof users.$inferInsert, 'passwordHash'>> & {
  accountId: number;
  /** Plain password to hash; default {@link TEST_PASSWORD}. */
  password?: string;
  globalAdmin?: boolean;
  /** Zone roles to grant: zone id → role id. */
  zones?: Record<number, number>;
};

/** A user with a real argon2id hash; returns the row and the plain password. */
export async function buildUser(db: Db, input: BuildUserInput) {
  const { password = TEST_PASSWORD, globalAdmin = false, zones = {}, ...rest } = input;
  const [row] = await db
    .insert(users)
    .values({
      email: `user-${unique()}@example.test`,
      firstname: 'Test',
      lastname: 'User',
      accountRbacRole: globalAdmin ? 'global-admin' : 'no-global-access',
      status: 'active',
      createdAt: new Date('2026-01-01T00:00:00Z'),
      ...rest,
      passwordHash: await hashOnce(password),
    })
    .returning();
  const user = row!;
  const grants = Object.entries(zones).map(([zoneId, roleId]) => ({
    userId: user.id,
    organizationId: Number(zoneId),
    roleId,
  }));
  if (grants.length) await db.insert(userZoneRoles).values(grants);
  return { ...user, password };
}

/** An account with one zone and a user holding `roleId` there (global admin with role 1 by default). */
export async function buildAccountWithUser(db: Db, options: { roleId?: number; globalAdmin?: boolean } = {}) {
  const account = await buildAccount(db);
  const zone = await buildZone(db, { accountId: account.id });
  const user = await buildUser(db, {
    accountId: account.id,
    globalAdmin: options.globalAdmin ?? options.roleId === undefined,
    zones: { [zone.id]: options.roleId ?? 1 },
  });
  return { account, zone, user };
}
