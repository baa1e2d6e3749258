import type { Db } from '../../db/client';
import {
  findUserByEmail,
  insertUser,
  removeZoneRolesExcept,
  setZoneRole,
  updateUser,
  type UserRow,
} from '../users/users.store';
import { SamlRefusal } from './saml-response';
import { listAccountZoneIds, listConnectionZoneRoles, type SamlConnectionRow } from './saml-signin.store';

/** The roles a `zone_rbac` connection gives: its zone pairs, else its default role in every zone of the account. */
async function mappedRoles(
  tx: Db,
  connection: SamlConnectionRow,
): Promise<{ organizationId: number; roleId: number }[]> {
  const pairs = await listConnectionZoneRoles(tx, connection.id);
  if (pairs.length > 0) return pairs;
  if (connection.defaultRoleId === null) return [];
  const zoneIds = await listAccountZoneIds(tx, connection.accountId);
  return zoneIds.map((organizationId) => ({ organizationId, roleId: connection.defaultRoleId! }));
}

/** Makes the user's zone roles exactly the mapped ones (the IdP's grouping is the source of truth). */
async function syncRoles(tx: Db, userId: number, roles: { organizationId: number; roleId: number }[]) {
  for (const role of roles) await setZoneRole(tx, userId, role.organizationId, role.roleId);
  await removeZoneRolesExcept(
    tx,
    userId,
    roles.map((r) => r.organizationId),
  );
}

function namesOf(email: string, attributes: Record<string, string>) {
  const pick = (...keys: string[]) => keys.map((k) => attributes[k]).find((v) => v && v.length > 0);
  const firstname = pick('firstname', 'givenName', 'urn:oid:2.5.4.42') ?? email.split('@')[0]!;
  const lastname = pick('lastname', 'sn', 'surname', 'urn:oid:2.5.4.4') ?? '';
  return { firstname: firstname.slice(0, 31), lastname: lastname.slice(0, 31) };
}

/** Who signed in, and whether this sign-in created them. */
export type AdmittedUser = { user: UserRow; created: boolean };

/**
 * Admits the user an assertion names, inside the sign-in's transaction:
 * - `zone_rbac`: creates them on first sign-in (active, address verified, no password, the
 *   mapped roles) and brings their roles back to the mapping on later ones (a global
 *   administrator keeps theirs);
 * - `invite`: only an existing user of the account; an invited (pending) user becomes active.
 * A user of another account with that address, or a disabled one, is refused.
 * @throws SamlRefusal
 */
export async function admitUser(
  tx: Db,
  connection: SamlConnectionRow,
  email: string,
  attributes: Record<string, string>,
  now: Date,
): Promise<AdmittedUser> {
  const existing = await findUserByEmail(tx, email);
  if (existing) {
    if (existing.accountId !== connection.accountId) throw new SamlRefusal('user belongs to another account');
    if (existing.status === 'disabled') throw new SamlRefusal('user is disabled');
    if (connection.provisionType === 'zone_rbac' && existing.accountRbacRole !== 'global-admin') {
      const roles = await mappedRoles(tx, connection);
      if (roles.length === 0) throw new SamlRefusal('connection maps no role');
      await syncRoles(tx, existing.id, roles);
    }
    const user = await updateUser(tx, existing.id, {
      status: 'active',
      emailVerified: true,
      samlEnabled: true,
      lastSigninAt: now,
    });
    return { user, created: false };
  }
  if (connection.provisionType === 'invite') throw new SamlRefusal('no invited user with this address');
  const roles = await mappedRoles(tx, connection);
  if (roles.length === 0) throw new SamlRefusal('connection maps no role');
  const user = await insertUser(tx, {
    accountId: connection.accountId,
    email,
    ...namesOf(email, attributes),
    passwordHash: null,
    status: 'active',
    emailVerified: true,
    samlEnabled: true,
    createdAt: now,
    lastSigninAt: now,
  });
  await syncRoles(tx, user.id, roles);
  return { user, created: true };
}
