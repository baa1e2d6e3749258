import type { z } from 'zod';
import { COMMON_PASSWORD_MESSAGE } from '@patchwell/core/auth/password';
import type { Profile } from '@patchwell/core/auth/profile.schema';
import { TEXTS } from '@patchwell/core/texts';
import {
  ZUpdateSelfBody,
  ZUpdateZoneUserBody,
  type UnlockUserBody,
  type ZoneUser,
} from '@patchwell/core/users/users.schema';
import { GLOBAL_ADMIN_ROLE_NAME, roleById } from '@patchwell/core/zones/roles';
import type { SetPrefsBody } from '@patchwell/core/zones/zones.schema';
import type { AppContext } from '../../context';
import { changesOf, logAccountActivity, logActivity } from '../activity/activity.service';
import { deleteUserSessions } from '../auth/sessions.store';
import { isUniqueViolation } from '../../db/errors';
import { notFound, AppError, validationError, type FieldErrors } from '../../domain/errors';
import { ERROR_CATALOGUE } from '@patchwell/core/shell/error-catalogue';
import type { Authz } from '../../domain/authz';
import { hashPassword, isCommonPassword, verifyPassword } from '../auth/passwords';
import { findPrefs } from '../auth/profile.store';
import { RATE_LIMITS, releaseAttempts, takeAttempts } from '../auth/rate-limits.service';
import { revokeOpenForUser } from '../invitations/invitations.store';
import { enterZone, requireZone } from '../zones/zone-access.service';
import { requireRoleInPlan, zoneHasFeature } from '../zones/entitlements.service';
import { emailInUse, globalAdminManagedGlobally } from './user-errors';
import {
  countZonesOf,
  findMember,
  findUser,
  isEmailTaken,
  listMembers,
  removeZoneRole,
  setMetadataFlag,
  setZoneRole,
  unlockUser as unlockUserRow,
  updateUser,
  upsertPrefs,
  type UserRow,
} from './users.store';

/** A sign-in lock holds until its end (a lock without one predates expiring locks). */
export const isLockedAt = (u: { locked: boolean; lockedUntil: Date | null }, now: Date) =>
  u.locked && (u.lockedUntil === null || u.lockedUntil.getTime() > now.getTime());

/** The fields every listed user has (users.schema.ts `userBase`); `locked` only while the lock holds at `now`. */
export function toUserFields(u: UserRow, now: Date) {
  return {
    id: u.id,
    uuid: u.uuid,
    firstname: u.firstname,
    lastname: u.lastname,
    email: u.email,
    status: u.status,
    locked: isLockedAt(u, now),
    tfa_enabled: u.tfaEnabled,
    account_rbac_role: u.accountRbacRole,
    created_at: u.createdAt.toISOString(),
    last_signin_at: u.lastSigninAt?.toISOString() ?? null,
  };
}

/** A user as a member of a zone: a global administrator is shown as such, whatever role they hold there. */
function toZoneUser(user: UserRow, roleId: number, now: Date): ZoneUser {
  const name =
    user.accountRbacRole === 'global-admin' ? GLOBAL_ADMIN_ROLE_NAME : (roleById(roleId)?.name ?? 'Unknown role');
  return { ...toUserFields(user, now), role: { id: roleId, name } };
}

/**
 * Parses a body with a schema chosen after the route ran (the same path takes two bodies),
 * reporting invalid fields as the schema validation of a route would.
 * @throws AppError 400 `validation` with `errors` keyed by field.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const list = (errors[issue.path.join('.') || '_'] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  throw validationError(errors);
}

/** A user as the activity log names them. */
function userObject(user: UserRow) {
  return { type: 'user', id: user.id, name: user.email };
}

/** `GET /api/users?o=`: the members of zone `o` with their role there (Users.read). */
export async function listZoneUsers(ctx: AppContext, authz: Authz, zoneId: number | undefined): Promise<ZoneUser[]> {
  const zone = await requireZone(ctx, authz, zoneId, 'Users', 'read');
  return (await listMembers(ctx.db, zone.id)).map((m) => toZoneUser(m.user, m.roleId, ctx.clock.now()));
}

export type UpdateUserInput = {
  zoneId: number | undefined;
  userId: number;
  /** `ZUpdateSelfBody` on oneself, `ZUpdateZoneUserBody` on another member. */
  body: unknown;
  /** The caller's session, kept when they change their password (their other sessions end). */
  sessionId: string | undefined;
};

/**
 * `PUT /api/users/{id}?o=`. On oneself: names, e-mail, password. On another member of
 * zone `o` (Users.modify): role and status. Both answer the user as a member of zone `o`.
 * @throws AppError 400 invalid fields, 403 missing permission or a global administrator's
 *   role or status, 404 zone or user not found, 409 e-mail in use.
 */
export async function updateZoneUser(ctx: AppContext, authz: Authz, input: UpdateUserInput): Promise<ZoneUser> {
  if (input.userId === authz.userId) return updateSelf(ctx, authz, input);

  const zone = await requireZone(ctx, authz, input.zoneId, 'Users', 'modify');
  const body = parseBody(ZUpdateZoneUserBody, input.body);
  const member = await findMember(ctx.db, input.userId, zone.id);
  if (!member) throw notFound();
  if (member.user.accountRbacRole === 'global-admin') throw globalAdminManagedGlobally();
  if (body.role_id !== undefined && !roleById(body.role_id)) {
    throw validationError({ role_id: [TEXTS.users.roleRequired] });
  }
  if (body.role_id !== undefined && body.role_id !== member.roleId) requireRoleInPlan(ctx, zone, body.role_id);
  if (body.status === 'active' && member.user.status === 'pending-invite') {
    throw validationError({ status: ['This user has not accepted the invitation yet.'] });
  }
  const roleId = body.role_id ?? member.roleId;
  const user = await ctx.db.transaction(async (tx) => {
    if (body.role_id !== undefined) await setZoneRole(tx, member.user.id, zone.id, body.role_id);
    if (body.status === undefined || body.status === member.user.status) return member.user;
    const updated = await updateUser(tx, member.user.id, { status: body.status });
    if (body.status === 'disabled') await deleteUserSessions(tx, member.user.id);
    return updated;
  });
  const roleName = (id: number) => roleById(id)?.name ?? String(id);
  const changes = changesOf(
    { role: roleName(member.roleId), status: member.user.status },
    { role: roleName(roleId), status: user.status },
  );
  await logActivity(ctx, authz, zone.id, 'user.update', userObject(user), { changes });
  ctx.logger.info(
    { userId: user.id, zoneId: zone.id, roleId: body.role_id, status: body.status, by: authz.userId },
    'zone user changed',
  );
  return toZoneUser(user, roleId, ctx.clock.now());
}

/** The caller edits themself: a decision of its own, no permission needed. */
async function updateSelf(ctx: AppContext, authz: Authz, input: UpdateUserInput): Promise<ZoneUser> {
  // Zone o matters only for its SAML setting; the caller needs no permission in it to edit themself.
  const zoneId = input.zoneId ?? authz.actor.onlyZoneId ?? undefined;
  if (zoneId === undefined) throw validationError({ o: [TEXTS.validation.namedRequired('Zone (o)')] });
  const zone = await enterZone(ctx, authz, zoneId);
  authz.allow('a user edits their own profile');
  const body = parseBody(ZUpdateSelfBody, input.body);
  const current = await findUser(ctx.db, authz.userId);
  if (!current) throw notFound();

  // Credentials change only at a browser, signed in: an API key cannot take over its owner.
  if (authz.via !== 'session' && (body.password1 !== undefined || body.email !== undefined)) {
    throw new AppError('users.needs_session');
  }

  const patch: Partial<UserRow> = {};
  if (body.firstname !== undefined) patch.firstname = body.firstname;
  if (body.lastname !== undefined) patch.lastname = body.lastname;
  if (body.email !== undefined && body.email !== current.email) {
    if (zone.saml.enabled && zoneHasFeature(ctx, zone, 'sso')) {
      const message = ERROR_CATALOGUE['users.email_saml'].message;
      throw new AppError('users.email_saml', { fieldErrors: { email: [message] } });
    }
    if (await isEmailTaken(ctx.db, body.email, current.id)) throw emailInUse();
    patch.email = body.email;
  }
  if (body.password1 !== undefined) {
    await checkCurrentPassword(ctx, current, body.password ?? '');
    if (isCommonPassword(body.password1)) throw validationError({ password1: [COMMON_PASSWORD_MESSAGE] });
    patch.passwordHash = await hashPassword(body.password1);
    patch.passwordChangedAt = ctx.clock.now();
  }

  let user = current;
  if (Object.keys(patch).length > 0) {
    try {
      user = await ctx.db.transaction(async (tx) => {
        const updated = await updateUser(tx, current.id, patch);
        // A new password ends every other session: whoever knew the old one is signed out.
        if (patch.passwordHash) await deleteUserSessions(tx, current.id, input.sessionId);
        return updated;
      });
    } catch (err) {
      if (isUniqueViolation(err, 'users_email_unique')) throw emailInUse();
      throw err;
    }
    ctx.logger.info(
      { userId: user.id, fields: Object.keys(patch).filter((k) => k !== 'passwordHash') },
      'profile updated',
    );
  }
  if (current.accountId !== null) {
    // The password's value never goes into the log; that it changed does.
    const changes = changesOf(current, user, ['firstname', 'lastname', 'email']);
    const facts = patch.passwordHash ? { credential_changed: 'password' } : {};
    const details = { changes, ...facts };
    await logAccountActivity(ctx, authz, current.accountId, 'user.update_self', userObject(user), details);
  }
  const roleId = authz.actor.zoneRoles.find((r) => r.organizationId === zone.id)?.roleId ?? 1;
  return toZoneUser(user, roleId, ctx.clock.now());
}

/**
 * The current password must verify before a new one is set. Wrong guesses count against the
 * same per-account limit as failed sign-ins, so a stolen session cannot guess without bound.
 * @throws AppError 400 on `password`, 429 `auth.rate_limited`.
 */
async function checkCurrentPassword(ctx: AppContext, user: UserRow, password: string): Promise<void> {
  const reservation = await takeAttempts(
    ctx,
    [{ rule: RATE_LIMITS.signInPerAccount, key: user.email }],
    ctx.clock.now(),
  );
  const ok = user.passwordHash !== null && (await verifyPassword(user.passwordHash, password));
  if (!ok) throw validationError({ password: ['The current password is incorrect.'] });
  await releaseAttempts(ctx, reservation);
}

/**
 * `DELETE /api/users/{id}?o=`: takes the user out of zone `o` (Users.delete) and withdraws
 * their open invitations into it. A user left without any zone (and without global access)
 * is signed out everywhere.
 * @throws AppError 403 missing permission, 404 zone or member not found.
 */
export async function removeZoneUser(
  ctx: AppContext,
  authz: Authz,
  zoneId: number | undefined,
  userId: number,
): Promise<void> {
  const zone = await requireZone(ctx, authz, zoneId, 'Users', 'delete');
  const member = await findMember(ctx.db, userId, zone.id);
  if (!member) throw notFound();
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await removeZoneRole(tx, userId, zone.id);
    await revokeOpenForUser(tx, userId, [zone.id], now);
    if (member.user.accountRbacRole !== 'global-admin' && (await countZonesOf(tx, userId)) === 0) {
      await deleteUserSessions(tx, userId);
    }
    await logActivity(ctx, authz, zone.id, 'user.remove', userObject(member.user), {}, tx);
  });
  ctx.logger.info({ userId, zoneId: zone.id, by: authz.userId }, 'user removed from zone');
}

/**
 * `POST /api/users/unlockaccount?o=`: unlocks a member of zone `o` locked after failed
 * sign-ins (Users.modify).
 * @throws AppError 403 missing permission, 404 zone or member not found.
 */
export async function unlockZoneUser(
  ctx: AppContext,
  authz: Authz,
  zoneId: number | undefined,
  body: UnlockUserBody,
): Promise<void> {
  const zone = await requireZone(ctx, authz, zoneId, 'Users', 'modify');
  const member = await findMember(ctx.db, body.userid, zone.id);
  if (!member) throw notFound();
  await ctx.db.transaction(async (tx) => {
    await unlockUserRow(tx, member.user);
    await logActivity(ctx, authz, zone.id, 'user.unlock', userObject(member.user), {}, tx);
  });
  ctx.logger.info({ userId: member.user.id, zoneId: zone.id, by: authz.userId }, 'user unlocked');
}

/** `GET /api/users/self/prefs`: the caller's preferences. */
export async function getOwnPrefs(ctx: AppContext, authz: Authz): Promise<Profile['prefs']> {
  authz.allow('a user reads their own preferences');
  return findPrefs(ctx.db, authz.userId);
}

/** `POST /api/users/self/prefs`: creates or overwrites the caller's preferences; answers all of them. */
export async function setOwnPrefs(ctx: AppContext, authz: Authz, body: SetPrefsBody): Promise<Profile['prefs']> {
  authz.allow('a user sets their own preferences');
  // One row per name (the last value wins): an upsert may not touch a row twice.
  const byName = new Map(body.prefs.map((p) => [p.pref_name, p]));
  await upsertPrefs(ctx.db, authz.userId, [...byName.values()]);
  return findPrefs(ctx.db, authz.userId);
}

/**
 * Marks a flag of the profile's `metadata` for the user (the reports mark
 * `overviewReportRun` and `prepatchReportRun` when they run). The caller has already
 * decided authorization for the request; this writes only about the caller themself.
 */
export async function markOwnMetadata(ctx: Pick<AppContext, 'db'>, userId: number, key: string): Promise<void> {
  await setMetadataFlag(ctx.db, userId, key);
}
