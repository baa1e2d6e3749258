import { ONE_DAY_MS } from '@patchwell/core/constants';
import type { FeatureFlag } from '@patchwell/core/shell/flags';
import type { Db } from '../../db/client';
import { hashPassword } from '../auth/passwords';
import { createAccountWithAdmin } from './accounts.service';
import {
  enableAccountFeatures,
  insertBanner,
  insertUser,
  insertZone,
  insertZoneRole,
  markQuickStartCompleted,
} from './accounts.store';

/** The demo's sign-in, printed at start-up. Public on purpose: the demo is for trying things out. */
export const DEMO_ADMIN_EMAIL = 'demo@patchwell.local';
export const DEMO_PASSWORD = 'patchwell-demo-2026';

export const DEMO_WELCOME_BANNER =
  'Welcome to the Patchwell demo. Everything here is sample data, so explore zones, users and roles freely.';

/** Flags turned on for the demo account: cloning policies, and the devices of every zone in one table. */
export const DEMO_FEATURES: FeatureFlag[] = ['clone_policy', 'global_devices_table'];

/** Other demo users: one per kind of access worth trying (role ids of core/zones/roles.ts). */
const DEMO_USERS = [
  {
    email: 'operator@patchwell.local',
    firstname: 'Oscar',
    lastname: 'Operator',
    roles: { Headquarters: 4, 'Retail Stores': 5 }, // Zone Operator, Patch Operator
  },
  {
    email: 'readonly@patchwell.local',
    firstname: 'Rita',
    lastname: 'Reader',
    roles: { Headquarters: 2, 'Cloud Servers': 2 }, // Read Only
  },
  {
    email: 'billing@patchwell.local',
    firstname: 'Bianca',
    lastname: 'Billing',
    roles: { Headquarters: 3 }, // Billing Administrator
  },
] as const;

/**
 * Seeds the demo account: three zones ("Cloud Servers" on an unexpired Complete trial so
 * the countdown shows, "Headquarters" on Complete, and its child "Retail Stores" on
 * Standard), a global administrator, three users with narrower roles and a welcome banner.
 * Runs inside the caller's transaction on an empty database.
 */
export async function seedDemo(tx: Db, now: Date): Promise<void> {
  const hashes = await Promise.all([DEMO_ADMIN_EMAIL, ...DEMO_USERS].map(() => hashPassword(DEMO_PASSWORD)));
  const {
    account,
    zone: hq,
    user: admin,
  } = await createAccountWithAdmin(tx, {
    accountName: 'Patchwell Demo',
    zone: { name: 'Headquarters', plan: 'tier3', trialEndTime: null },
    admin: { email: DEMO_ADMIN_EMAIL, firstname: 'Demo', lastname: 'Administrator', passwordHash: hashes[0]! },
    now,
  });
  // The demo lands on its dashboard: its quick start guide counts as done.
  await markQuickStartCompleted(tx, account.id);
  const cloud = await insertZone(tx, {
    accountId: account.id,
    name: 'Cloud Servers',
    plan: 'tier3',
    trialEndTime: new Date(now.getTime() + 10 * ONE_DAY_MS),
    createdAt: now,
  });
  const retail = await insertZone(tx, {
    accountId: account.id,
    parentId: hq.id,
    name: 'Retail Stores',
    plan: 'manage',
    createdAt: now,
  });
  const zones: Record<string, number> = { Headquarters: hq.id, 'Cloud Servers': cloud.id, 'Retail Stores': retail.id };
  for (const zoneId of [cloud.id, retail.id]) {
    await insertZoneRole(tx, { userId: admin.id, organizationId: zoneId, roleId: 1 });
  }
  for (const [i, spec] of DEMO_USERS.entries()) {
    const user = await insertUser(tx, {
      accountId: account.id,
      email: spec.email,
      firstname: spec.firstname,
      lastname: spec.lastname,
      passwordHash: hashes[i + 1]!,
      accountRbacRole: 'no-global-access',
      status: 'active',
      createdAt: now,
      passwordChangedAt: now,
    });
    for (const [zoneName, roleId] of Object.entries(spec.roles)) {
      await insertZoneRole(tx, { userId: user.id, organizationId: zones[zoneName]!, roleId });
    }
  }
  await insertBanner(tx, { message: DEMO_WELCOME_BANNER, messagetype: 'info', startsAt: now, endsAt: null });
  // The demo shows what is built behind a flag that is off by default elsewhere.
  await enableAccountFeatures(tx, account.id, DEMO_FEATURES);
}
