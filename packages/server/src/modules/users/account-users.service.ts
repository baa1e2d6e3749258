import { TEXTS } from '@patchwell/core/texts';
import type {
  AccountUser,
  CreateAccountUserBody,
  UpdateAccountUserBody,
  ZoneAssignment,
} from '@patchwell/core/users/users.schema';
import { roleById } from '@patchwell/core/zones/roles';
import type { AppContext } from '../../context';
import { changesOf, logAccountActivity } from '../activity/activity.service';
import { deleteUserSessions } from '../auth/sessions.store';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { notFound, AppError, validationError, type FieldErrors } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { findInviterAndAccount, revokeOpenForUser } from '../invitations/invitations.store';
import {
  linkToShow,
  mailInvitation,
  recordInvitation,
  requireLinkOrigin,
  type NewInvitation,
} from '../invitations/invitations.service';
import { requireAccount } from '../zones/zone-access.service';
import { requireRoleInPlan } from '../zones/entitlements.service';
import { emailInUse } from './user-errors';
import { toUserFields } from './users.service';
import {
  countZonesOf,
  deleteUser,
  findAccountZones,
  findFirstZone,
  insertUser,
  isEmailTaken,
  listAccountUsers,
  listZoneRolesOf,
  removeZoneRolesExcept,
  setZoneRole,
  updateUser,
  type UserRow,
} from './users.store';

/** Zone role id given with an invitation of a global administrator who was given no zone. */
const ZONE_ADMIN_ROLE_ID = 1;

async function withZones(db: Db, rows: UserRow[], now: Date): Promise<AccountUser[]> {
  const roles = await listZoneRolesOf(
    db,
    rows.map((u) => u.id),
  );
  return rows.map((u) => ({
    ...toUserFields(u, now),
    zones: roles
      .filter((r) => r.userId === u.id)
      .map((r) => ({
        zone_id: r.zoneId,
        zone_name: r.zoneName,
        role_id: r.roleId,
        role_name: roleById(r.roleId)?.name ?? 'Unknown role',
      })),
  }));
}

async function findAccountUser(db: Db, accountId: number, userId: number, now: Date): Promise<AccountUser> {
  const rows = await listAccountUsers(db, accountId, userId);
  if (rows.length === 0) throw notFound();
  return (await withZones(db, rows, now))[0]!;
}

/**
 * Checks zone/role pairs against the account: unknown roles are 'Role is required' (400) on
 * `zones.{i}.role_id`; a zone of another account is not found (404), as everywhere; a role
 * the zone's plan does not give is 403 'Feature Unavailable' (one the user already holds
 * there, listed in `held`, stays).
 */
async function checkAssignments(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  accountId: number,
  zones: ZoneAssignment[],
  held: { zoneId: number; roleId: number }[] = [],
) {
  const { db } = ctx;
  const errors: FieldErrors = {};
  zones.forEach((z, i) => {
    if (!roleById(z.role_id)) errors[`zones.${i}.role_id`] = [TEXTS.users.roleRequired];
  });
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const found = await findAccountZones(
    db,
    accountId,
    zones.map((z) => z.zone_id),
  );
  if (found.length !== new Set(zones.map((z) => z.zone_id)).size) throw notFound();
  const byId = new Map(found.map((z) => [z.id, z]));
  for (const z of zones) {
    const kept = held.some((h) => h.zoneId === z.zone_id && h.roleId === z.role_id);
    if (!kept) requireRoleInPlan(ctx, byId.get(z.zone_id)!, z.role_id);
  }
  return byId;
}

/** A user as the activity log names them. */
function userObject(user: UserRow) {
  return { type: 'user', id: user.id, name: user.email };
}

function zoneRoleText(zoneName: string | undefined, roleId: number): string {
  return `${zoneName ?? 'zone'}: ${roleById(roleId)?.name ?? roleId}`;
}

/** The user's zones and roles in words, sorted, for a before/after summary. */
async function zoneRolesOf(db: Db, userId: number): Promise<string[]> {
  const rows = await listZoneRolesOf(db, [userId]);
  return rows.map((r) => zoneRoleText(r.zoneName, r.roleId)).sort();
}

/** `GET /api/accounts/{accountId}/users`: every user of the account with their zones. */
export async function listUsersOfAccount(ctx: AppContext, authz: Authz, accountId: number): Promise<AccountUser[]> {
  requireAccount(authz, accountId, 'Account', 'read');
  return withZones(ctx.db, await listAccountUsers(ctx.db, accountId), ctx.clock.now());
}

/** `GET /api/accounts/{accountId}/users/{userId}`. @throws AppError 404 for a user of another account. */
export async function getUserOfAccount(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  userId: number,
): Promise<AccountUser> {
  requireAccount(authz, accountId, 'Account', 'read');
  return findAccountUser(ctx.db, accountId, userId, ctx.clock.now());
}

/**
 * `POST /api/accounts/{accountId}/users`: creates a `pending-invite` user holding the given
 * zone roles and sends the invitation (into the first zone listed) that lets them choose a
 * password. A user without global access needs at least one zone.
 * @throws AppError 400 invalid fields, 404 a zone of another account, 409 e-mail in use.
 */
export async function createUserOfAccount(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  body: CreateAccountUserBody,
  linkOrigin: string | null,
): Promise<AccountUser> {
  requireAccount(authz, accountId, 'AccountInvitation', 'create');
  requireLinkOrigin(linkOrigin);
  if (body.zones.length === 0 && body.account_rbac_role !== 'global-admin') {
    throw validationError({ zones: [TEXTS.validation.atLeastOne] });
  }
  const zones = await checkAssignments(ctx, accountId, body.zones);
  if (await isEmailTaken(ctx.db, body.email)) throw emailInUse();
  // A global administrator given no zone is invited into the account's first one: they may enter every zone.
  const first = body.zones[0];
  const inviteZone = first ? zones.get(first.zone_id) : await findFirstZone(ctx.db, accountId);
  if (!inviteZone) throw validationError({ zones: [TEXTS.validation.atLeastOne] });
  const { inviter, accountName } = await findInviterAndAccount(ctx.db, authz.userId, accountId);
  const now = ctx.clock.now();

  let created: { user: UserRow; input: NewInvitation; token: string; expiresAt: Date };
  try {
    created = await ctx.db.transaction(async (tx) => {
      const user = await insertUser(tx, {
        accountId,
        email: body.email,
        firstname: body.firstname,
        lastname: body.lastname,
        accountRbacRole: body.account_rbac_role,
        passwordHash: null,
        status: 'pending-invite',
        createdAt: now,
      });
      for (const z of body.zones) await setZoneRole(tx, user.id, z.zone_id, z.role_id);
      const input: NewInvitation = {
        user,
        zone: { id: inviteZone.id, name: inviteZone.name, accountId },
        accountName,
        roleId: first?.role_id ?? ZONE_ADMIN_ROLE_ID,
        invitedBy: inviter,
      };
      const { invitation, token } = await recordInvitation(tx, input, now);
      const zonesGiven = body.zones.map((z) => zoneRoleText(zones.get(z.zone_id)?.name, z.role_id));
      const facts = { account_rbac_role: body.account_rbac_role, zones: zonesGiven };
      await logAccountActivity(ctx, authz, accountId, 'user.create', userObject(user), facts, tx);
      return { user, input, token, expiresAt: invitation.expiresAt };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_unique')) throw emailInUse();
    throw err;
  }
  const mailed = await mailInvitation(ctx, created.input, created, linkOrigin);
  ctx.logger.info({ userId: created.user.id, accountId, by: authz.userId }, 'account user created and invited');
  const user = await findAccountUser(ctx.db, accountId, created.user.id, ctx.clock.now());
  return { ...user, invitation: { mail: mailed.state, accept_link: linkToShow(authz, accountId, mailed) } };
}

/**
 * `PUT /api/accounts/{accountId}/users/{userId}`: names, account role, status and the full
 * list of zone/role pairs (zones left out are removed, with their open invitations).
 * Disabling, or leaving a user without zones and global access, ends their sessions. A
 * global administrator cannot take away their own global access or disable themself.
 * @throws AppError 400 invalid fields, 404 a user or zone of another account.
 */
export async function updateUserOfAccount(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  userId: number,
  body: UpdateAccountUserBody,
): Promise<AccountUser> {
  requireAccount(authz, accountId, 'Account', 'modify');
  const [current] = await listAccountUsers(ctx.db, accountId, userId);
  if (!current) throw notFound();
  if (body.zones) await checkAssignments(ctx, accountId, body.zones, await listZoneRolesOf(ctx.db, [userId]));

  const errors: FieldErrors = {};
  if (userId === authz.userId && body.account_rbac_role === 'no-global-access') {
    errors.account_rbac_role = ['You cannot remove your own global administrator access.'];
  }
  if (userId === authz.userId && body.status === 'disabled') errors.status = ['You cannot disable yourself.'];
  if (body.status === 'active' && current.status === 'pending-invite') {
    errors.status = ['This user has not accepted the invitation yet.'];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);

  const now = ctx.clock.now();
  const zonesBefore = await zoneRolesOf(ctx.db, userId);
  await ctx.db.transaction(async (tx) => {
    const patch: Partial<UserRow> = {};
    if (body.firstname !== undefined) patch.firstname = body.firstname;
    if (body.lastname !== undefined) patch.lastname = body.lastname;
    if (body.account_rbac_role !== undefined) patch.accountRbacRole = body.account_rbac_role;
    if (body.status !== undefined && body.status !== current.status) patch.status = body.status;
    const user = Object.keys(patch).length > 0 ? await updateUser(tx, userId, patch) : current;
    if (body.zones) {
      const removed = await removeZoneRolesExcept(
        tx,
        userId,
        body.zones.map((z) => z.zone_id),
      );
      await revokeOpenForUser(tx, userId, removed, now);
      for (const z of body.zones) await setZoneRole(tx, userId, z.zone_id, z.role_id);
    }
    const noAccessLeft = user.accountRbacRole !== 'global-admin' && (await countZonesOf(tx, userId)) === 0;
    if (user.status === 'disabled' || noAccessLeft) await deleteUserSessions(tx, userId);
    const fields = ['firstname', 'lastname', 'accountRbacRole', 'status'] as const;
    const changes = changesOf(current, user, [...fields]);
    if (body.zones) Object.assign(changes, changesOf({ zones: zonesBefore }, { zones: await zoneRolesOf(tx, userId) }));
    await logAccountActivity(ctx, authz, accountId, 'user.update', userObject(user), { changes }, tx);
  });
  ctx.logger.info({ userId, accountId, fields: Object.keys(body), by: authz.userId }, 'account user changed');
  return findAccountUser(ctx.db, accountId, userId, ctx.clock.now());
}

/**
 * `DELETE /api/accounts/{accountId}/users/{userId}`: deletes the user entirely: roles,
 * sessions, invitations, API keys and preferences go too.
 * @throws AppError 403 deleting oneself, 404 a user of another account.
 */
export async function deleteUserOfAccount(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  userId: number,
): Promise<void> {
  requireAccount(authz, accountId, 'Account', 'delete');
  const [current] = await listAccountUsers(ctx.db, accountId, userId);
  if (!current) throw notFound();
  if (userId === authz.userId) throw new AppError('users.self');
  await ctx.db.transaction(async (tx) => {
    await deleteUser(tx, userId);
    await logAccountActivity(ctx, authz, accountId, 'user.delete', userObject(current), {}, tx);
  });
  ctx.logger.info({ userId, accountId, by: authz.userId }, 'account user deleted');
}
