import { randomBytes } from 'node:crypto';
import { COMMON_PASSWORD_MESSAGE } from '@patchwell/core/auth/password';
import { ONE_DAY_MS } from '@patchwell/core/constants';
import { TEXTS } from '@patchwell/core/texts';
import type { AccountInvitation, InvitationState } from '@patchwell/core/users/invitations.schema';
import type {
  AcceptInvitationBody,
  AcceptInvitationResult,
  Invitation,
  InviteUserBody,
  InviteUserResult,
} from '@patchwell/core/users/users.schema';
import { roleById } from '@patchwell/core/zones/roles';
import type { AppContext } from '../../context';
import { logActivity } from '../activity/activity.service';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { notFound, AppError, validationError, type FieldErrors } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { hashPassword, isCommonPassword } from '../auth/passwords';
import { createSession, type SessionUser } from '../auth/sessions.service';
import { sendMail, type MailOutcome } from '../mail/mail.service';
import { invitationMail } from './invitation-mail';
import { alreadyInZone, emailInUse } from '../users/user-errors';
import {
  addZoneRole,
  findMember,
  findUser,
  findUserByEmail,
  insertUser,
  setZoneRole,
  updateUser,
} from '../users/users.store';
import { findZone } from '../zones/zones.store';
import { requireAccount, requireZone } from '../zones/zone-access.service';
import { requireRoleInPlan } from '../zones/entitlements.service';
import {
  claimInvitation,
  findAccountInvitation,
  findByTokenHash,
  findInviterAndAccount,
  findLatestInvitation,
  insertInvitation,
  listAccountInvitations,
  revokeInvitation,
  revokeOpenForEmail,
} from './invitations.store';
import { sha256Hex } from '../../domain/sha256';

/** An invitation link works for this long (contract: 7 days). */
export const INVITATION_LIFETIME_DAYS = 7;

/** 410 for a link that was used, revoked or has expired; the console shows the message. */
export function invitationGone(): AppError {
  return new AppError('invitations.expired');
}

/** The stored form of a token: its sha256, so the table alone opens no invitation. */
export function tokenHashOf(token: string): string {
  return sha256Hex(token);
}

const displayName = (p: { firstname: string; lastname: string; email: string }) =>
  `${p.firstname} ${p.lastname}`.trim() || p.email;

/** The accept link under `origin` (`PATCHWELL_PUBLIC_URL`, or a loopback origin: http/link-origin.ts). */
export function acceptLink(origin: string, token: string): string {
  return `${origin}/console/accept-invite?token=${encodeURIComponent(token)}`;
}

/**
 * The origin invitation links point at, before anything is written.
 * @throws AppError 409 `invitations.public_url_required` without one to trust.
 */
export function requireLinkOrigin(origin: string | null): string {
  if (origin === null) throw new AppError('invitations.public_url_required');
  return origin;
}

export type NewInvitation = {
  user: { id: number; email: string; firstname: string };
  zone: { id: number; name: string; accountId: number };
  accountName: string;
  roleId: number;
  invitedBy: { id: number; firstname: string; lastname: string; email: string };
};

/**
 * Records an invitation (revoking older open ones of the e-mail into the zone) inside the
 * caller's transaction, and returns the raw token, which exists only in the e-mail.
 */
export async function recordInvitation(tx: Db, input: NewInvitation, now: Date) {
  const token = randomBytes(32).toString('base64url');
  await revokeOpenForEmail(tx, input.user.email, input.zone.id, now);
  const invitation = await insertInvitation(tx, {
    tokenHash: tokenHashOf(token),
    userId: input.user.id,
    organizationId: input.zone.id,
    roleId: input.roleId,
    invitedBy: input.invitedBy.id,
    email: input.user.email,
    createdAt: now,
    expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_DAYS * ONE_DAY_MS),
  });
  return { invitation, token };
}

/** Sends the invitation e-mail (or leaves it in the outbox without SMTP); returns what became of it and its link. */
export async function mailInvitation(
  ctx: AppContext,
  input: NewInvitation,
  sent: { token: string; expiresAt: Date },
  linkOrigin: string | null,
): Promise<{ state: MailOutcome['state']; link: string }> {
  const link = acceptLink(requireLinkOrigin(linkOrigin), sent.token);
  const mail = invitationMail({
    firstname: input.user.firstname,
    inviterName: displayName(input.invitedBy),
    zoneName: input.zone.name,
    accountName: input.accountName,
    roleName: roleById(input.roleId)?.name ?? 'a member',
    link,
    expiresAt: sent.expiresAt,
  });
  const { state } = await sendMail(ctx, { accountId: input.zone.accountId, to: input.user.email, ...mail });
  return { state, link };
}

/**
 * The link of an invitation whose e-mail did not go out, for the caller to hand over: only
 * to those who may read the account's outbox (its global administrators), where it is anyway.
 */
export function linkToShow(authz: Authz, accountId: number, mailed: { state: MailOutcome['state']; link: string }) {
  const { actor } = authz;
  const readsOutbox = actor.isGlobalAdmin && actor.onlyZoneId == null && actor.accountId === accountId;
  return mailed.state !== 'sent' && readsOutbox ? mailed.link : null;
}

function requireKnownRole(roleId: number, field: string): void {
  if (!roleById(roleId)) throw validationError({ [field]: [TEXTS.users.roleRequired] });
}

/**
 * `POST /api/inviteUser?o=`: invites an e-mail into zone `o` with a role (Users.invite).
 * - A new e-mail becomes a user of the zone's account, `pending-invite`, holding the role
 *   at once (so the zone lists them); accepting sets their password and activates them.
 * - A pending user is invited again (into this or another zone): the role is set now and
 *   the newer link replaces older ones for the same zone.
 * - An active user of the same account gets the role when they accept.
 * @throws AppError 409 'This user already exists in this Zone' (errors.email) for a member,
 *   409 'This email address is already in use.' for a user of another account or a disabled one.
 */
export async function inviteUser(
  ctx: AppContext,
  authz: Authz,
  zoneId: number | undefined,
  body: InviteUserBody,
  linkOrigin: string | null,
): Promise<InviteUserResult> {
  const zone = await requireZone(ctx, authz, zoneId, 'Users', 'invite');
  requireLinkOrigin(linkOrigin);
  requireKnownRole(body.role_id, 'role_id');
  requireRoleInPlan(ctx, zone, body.role_id);
  const now = ctx.clock.now();
  const existing = await findUserByEmail(ctx.db, body.email);
  if (existing) {
    if (existing.accountId !== zone.accountId || existing.status === 'disabled') throw emailInUse();
    const member = await findMember(ctx.db, existing.id, zone.id);
    const isGlobalAdmin = existing.accountRbacRole === 'global-admin';
    if ((member || isGlobalAdmin) && existing.status !== 'pending-invite') throw alreadyInZone();
  }
  const { inviter, accountName } = await findInviterAndAccount(ctx.db, authz.userId, zone.accountId);

  let recorded: Awaited<ReturnType<typeof recordInvitation>>;
  let input: NewInvitation;
  try {
    ({ recorded, input } = await ctx.db.transaction(async (tx) => {
      let user = existing;
      if (!user) {
        user = await insertUser(tx, {
          accountId: zone.accountId,
          email: body.email,
          firstname: body.firstname ?? '',
          lastname: body.lastname ?? '',
          passwordHash: null,
          status: 'pending-invite',
          createdAt: now,
        });
      } else if (user.status === 'pending-invite' && (body.firstname || body.lastname)) {
        user = await updateUser(tx, user.id, {
          firstname: body.firstname ?? user.firstname,
          lastname: body.lastname ?? user.lastname,
        });
      }
      // Pending users hold their roles from the start; active ones get this one on acceptance.
      if (user.status === 'pending-invite') await setZoneRole(tx, user.id, zone.id, body.role_id);
      const input: NewInvitation = {
        user,
        zone,
        accountName,
        roleId: body.role_id,
        invitedBy: inviter,
      };
      const recorded = await recordInvitation(tx, input, now);
      const object = { type: 'invitation', id: recorded.invitation.id, name: body.email };
      const facts = { role: roleById(body.role_id)?.name ?? body.role_id, new_user: !existing };
      await logActivity(ctx, authz, zone.id, 'invitation.create', object, facts, tx);
      return { recorded, input };
    }));
  } catch (err) {
    // The same e-mail invited twice at the same moment: the unique index decides.
    if (isUniqueViolation(err, 'users_email_unique')) throw emailInUse();
    throw err;
  }
  const mailed = await mailInvitation(
    ctx,
    input,
    { token: recorded.token, expiresAt: recorded.invitation.expiresAt },
    linkOrigin,
  );
  ctx.logger.info(
    { invitationId: recorded.invitation.id, userId: input.user.id, zoneId: zone.id },
    'user invited into a zone',
  );
  return {
    invitation_id: recorded.invitation.id,
    user_id: input.user.id,
    status: 'pending-invite',
    mail: mailed.state,
    accept_link: linkToShow(authz, zone.accountId, mailed),
  };
}

/**
 * Sends a pending user a fresh link into a zone: a new invitation (new token, new 7 days)
 * that revokes the older ones, with the role of the last invitation. Used by both resend routes.
 * @throws AppError 409 `invitations.accepted` when the user already accepted.
 */
async function reissue(
  ctx: AppContext,
  authz: Authz,
  zone: { id: number; name: string; accountId: number },
  userId: number,
  linkOrigin: string | null,
): Promise<InviteUserResult> {
  const user = await findUser(ctx.db, userId);
  const last = user ? await findLatestInvitation(ctx.db, user.id, zone.id) : undefined;
  if (!user || !last) throw notFound();
  if (last.acceptedAt || user.status === 'active') {
    throw new AppError('invitations.accepted');
  }
  if (user.status === 'disabled') throw emailInUse();
  requireLinkOrigin(linkOrigin);
  const { inviter, accountName } = await findInviterAndAccount(ctx.db, authz.userId, zone.accountId);
  const input: NewInvitation = { user, zone, accountName, roleId: last.roleId, invitedBy: inviter };
  const now = ctx.clock.now();
  const recorded = await ctx.db.transaction(async (tx) => {
    const made = await recordInvitation(tx, input, now);
    const object = { type: 'invitation', id: made.invitation.id, name: user.email };
    await logActivity(ctx, authz, zone.id, 'invitation.resend', object, { replaces: last.id }, tx);
    return made;
  });
  const mailed = await mailInvitation(
    ctx,
    input,
    { token: recorded.token, expiresAt: recorded.invitation.expiresAt },
    linkOrigin,
  );
  ctx.logger.info({ invitationId: recorded.invitation.id, userId: user.id, zoneId: zone.id }, 'invitation resent');
  return {
    invitation_id: recorded.invitation.id,
    user_id: user.id,
    status: 'pending-invite',
    mail: mailed.state,
    accept_link: linkToShow(authz, zone.accountId, mailed),
  };
}

/** `POST /api/users/{userId}/resend-invitation?o=` (Users.invite in zone `o`): a fresh link for a pending member. */
export async function resendZoneInvitation(
  ctx: AppContext,
  authz: Authz,
  zoneId: number | undefined,
  userId: number,
  linkOrigin: string | null,
): Promise<InviteUserResult> {
  const zone = await requireZone(ctx, authz, zoneId, 'Users', 'invite');
  return reissue(ctx, authz, zone, userId, linkOrigin);
}

/** `POST /api/accounts/{accountId}/invitations/{id}/resend`: a fresh link for that invitation's user and zone. */
export async function resendAccountInvitation(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  id: number,
  linkOrigin: string | null,
): Promise<InviteUserResult> {
  requireAccount(authz, accountId, 'AccountInvitation', 'create');
  const invitation = await findAccountInvitation(ctx.db, accountId, id);
  if (!invitation) throw notFound();
  const zone = await findZone(ctx.db, invitation.organizationId);
  if (!zone) throw notFound();
  return reissue(ctx, authz, zone, invitation.userId, linkOrigin);
}

/** Why an invitation cannot be used any more, or null when it can. */
function stateOf(
  invitation: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
  now: Date,
): InvitationState {
  if (invitation.acceptedAt) return 'accepted';
  if (invitation.revokedAt) return 'revoked';
  if (invitation.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'pending';
}

/** The invitation of a token if it can still be accepted. @throws 404 unknown token, 410 used, revoked or expired. */
async function usableInvitation(ctx: AppContext, token: string) {
  const found = await findByTokenHash(ctx.db, tokenHashOf(token));
  if (!found) throw notFound();
  if (stateOf(found.invitation, ctx.clock.now()) !== 'pending' || found.user.status === 'disabled') {
    throw invitationGone();
  }
  return found;
}

/** `GET /api/invitations/{token}` (public): what the acceptance page shows. */
export async function getInvitation(ctx: AppContext, token: string): Promise<Invitation> {
  const found = await usableInvitation(ctx, token);
  return {
    email: found.invitation.email,
    zone_name: found.zone.name,
    account_name: found.accountName,
    invited_by: found.inviter?.email ? displayName(found.inviter) : found.accountName,
    expires_at: found.invitation.expiresAt.toISOString(),
    needs_password: !found.user.hasPassword,
  };
}

/**
 * `POST /api/invitations/{token}/accept` (public; the token is the proof). A new user
 * chooses names and a password and becomes active; an existing user gets the zone role.
 * The invitation is claimed in the same transaction as these changes, so of two concurrent
 * acceptances one wins and the other gets 410. The user is then signed in, unless locked
 * after failed sign-ins (an invitation does not lift that).
 * @returns the e-mail, and a session token for the cookie (null for a locked user).
 * @throws AppError 400 invalid fields, 404 unknown token, 410 used, revoked or expired.
 */
export async function acceptInvitation(
  ctx: AppContext,
  token: string,
  body: AcceptInvitationBody,
  client: { ip: string | undefined; userAgent: string | undefined },
): Promise<{ result: AcceptInvitationResult; session: { token: string; user: SessionUser } | null }> {
  const found = await usableInvitation(ctx, token);
  const isNew = !found.user.hasPassword;
  let newUser: { firstname: string; lastname: string; passwordHash: string } | undefined;
  if (isNew) {
    const errors: FieldErrors = {};
    const firstname = body.firstname ?? (found.user.firstname || undefined);
    const lastname = body.lastname ?? (found.user.lastname || undefined);
    if (!firstname) errors.firstname = [TEXTS.validation.namedRequired('First name')];
    if (!lastname) errors.lastname = [TEXTS.validation.namedRequired('Last name')];
    if (body.password === undefined) errors.password = [TEXTS.validation.required];
    else if (isCommonPassword(body.password)) errors.password = [COMMON_PASSWORD_MESSAGE];
    if (Object.keys(errors).length > 0 || !firstname || !lastname || body.password === undefined) {
      throw validationError(errors);
    }
    // Hashing takes ~85 ms: before the transaction, which holds PGlite's only connection.
    newUser = { firstname, lastname, passwordHash: await hashPassword(body.password) };
  }

  const now = ctx.clock.now();
  const user = await ctx.db.transaction(async (tx) => {
    const claimed = await claimInvitation(tx, found.invitation.id, now);
    if (!claimed) throw invitationGone();
    await logActivity(
      ctx,
      { userId: found.user.id, via: 'session', clientAddress: client.ip },
      claimed.organizationId,
      'invitation.accept',
      { type: 'invitation', id: found.invitation.id, name: found.invitation.email },
      { new_user: isNew },
      tx,
    );
    // The invitation reached the address, which proves it (a sign-up not yet verified included).
    if (newUser) {
      // A pending user already holds the roles they were invited with.
      return updateUser(tx, found.user.id, {
        ...newUser,
        emailVerified: true,
        status: 'active',
        passwordChangedAt: now,
        lastSigninAt: found.user.locked ? undefined : now,
      });
    }
    await addZoneRole(tx, found.user.id, claimed.organizationId, claimed.roleId);
    return updateUser(tx, found.user.id, { emailVerified: true, lastSigninAt: found.user.locked ? undefined : now });
  });
  ctx.logger.info({ invitationId: found.invitation.id, userId: user.id, zoneId: found.zone.id }, 'invitation accepted');
  const session = user.locked
    ? null
    : await createSession(
        ctx,
        { id: user.id, accountId: user.accountId, isGlobalAdmin: user.accountRbacRole === 'global-admin' },
        client,
      );
  return { result: { email: user.email }, session };
}

function toAccountInvitation(
  row: Awaited<ReturnType<typeof listAccountInvitations>>[number],
  now: Date,
): AccountInvitation {
  const { invitation: i } = row;
  return {
    id: i.id,
    email: i.email,
    user_id: i.userId,
    zone_id: i.organizationId,
    zone_name: row.zoneName,
    role_id: i.roleId,
    role_name: roleById(i.roleId)?.name ?? 'Unknown role',
    invited_by: row.inviter?.email ? displayName(row.inviter) : null,
    created_at: i.createdAt.toISOString(),
    expires_at: i.expiresAt.toISOString(),
    accepted_at: i.acceptedAt?.toISOString() ?? null,
    state: stateOf(i, now),
  };
}

/** `GET /api/accounts/{accountId}/invitations`: every invitation into the account's zones, latest first. */
export async function listInvitations(ctx: AppContext, authz: Authz, accountId: number): Promise<AccountInvitation[]> {
  requireAccount(authz, accountId, 'AccountInvitation', 'read');
  const now = ctx.clock.now();
  return (await listAccountInvitations(ctx.db, accountId)).map((row) => toAccountInvitation(row, now));
}

/**
 * `DELETE /api/accounts/{accountId}/invitations/{id}`: the link stops working. Revoking a
 * revoked or expired invitation changes nothing.
 * @throws AppError 404 another account's or unknown, 409 `invitations.accepted` when already accepted.
 */
export async function revokeAccountInvitation(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  id: number,
): Promise<void> {
  requireAccount(authz, accountId, 'AccountInvitation', 'delete');
  const invitation = await findAccountInvitation(ctx.db, accountId, id);
  if (!invitation) throw notFound();
  if (invitation.acceptedAt) {
    throw new AppError('invitations.accepted');
  }
  await revokeInvitation(ctx.db, id, ctx.clock.now());
  const object = { type: 'invitation', id, name: invitation.email };
  await logActivity(ctx, authz, invitation.organizationId, 'invitation.revoke', object);
}
