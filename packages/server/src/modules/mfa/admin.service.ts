import type { AccountMfa, ZoneSecurity } from '@patchwell/core/auth/mfa.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { AppError, notFound } from '../../domain/errors';
import { logAccountActivity, logActivity } from '../activity/activity.service';
import { requireAccount, requireZone } from '../zones/zone-access.service';
import { requireAccountFeature, requireFeature } from '../zones/entitlements.service';
import { deleteFactor, deleteUserChallenges, findManagedUser, type Exec } from './mfa.store';
import {
  accountHasSamlConnection,
  findAccountRequireMfa,
  findZoneSecurity,
  setAccountRequireMfa,
  setZoneRequireMfa,
  setZoneSamlEnabled,
} from './security.store';

/**
 * What administrators do about MFA: reset a user's factor (TFA.delete in the zone), and the
 * sign-in requirements of a zone (require MFA: TFA.modify; require SSO: Saml.manage) and of
 * the account (require MFA: Account.modify, global administrators).
 */

/**
 * `POST /api/users/{id}/tfa/reset?o=`: removes the user's factor, recovery codes and pending
 * sign-in steps; they enrol again (at their next sign-in when a requirement applies).
 * @throws AppError 404 when the user is not a member of zone `o` (or a global administrator of its account).
 */
export async function resetUserTfa(
  ctx: AppContext,
  authz: Authz,
  zoneId: number | undefined,
  userId: number,
): Promise<void> {
  const zone = await requireZone(ctx, authz, zoneId, 'TFA', 'delete');
  const user = await findManagedUser(ctx.db, userId, zone.id);
  if (!user) throw notFound();
  await ctx.db.transaction(async (tx) => {
    const hadFactor = await deleteFactor(tx, user.id);
    await deleteUserChallenges(tx, user.id);
    const object = { type: 'user', id: user.id, name: user.email };
    await logActivity(ctx, authz, zone.id, 'user.mfa_reset', object, { had_factor: hadFactor }, tx);
  });
  ctx.logger.info({ userId: user.id, zoneId: zone.id, by: authz.userId }, 'mfa reset by an administrator');
}

async function zoneSecurityOf(ctx: AppContext, zone: { id: number; accountId: number }): Promise<ZoneSecurity> {
  const row = await findZoneSecurity(ctx.db, zone.id);
  if (!row) throw notFound();
  return {
    require_mfa: row.requireMfa,
    account_require_mfa: row.accountRequireMfa,
    require_sso: Boolean(row.saml?.enabled),
    sso_available: await accountHasSamlConnection(ctx.db, zone.accountId),
  };
}

/**
 * Sets one of the zone's sign-in requirements with `write` and records the change in the same
 * transaction; nothing happens when it already holds.
 */
async function recordZoneRequirement(
  ctx: AppContext,
  authz: Authz,
  zone: { id: number; name: string },
  action: 'zone.require_mfa' | 'zone.require_sso',
  from: boolean,
  to: boolean,
  write: (tx: Exec) => Promise<void>,
): Promise<void> {
  if (from === to) return;
  await ctx.db.transaction(async (tx) => {
    await write(tx);
    const object = { type: 'zone', id: zone.id, name: zone.name };
    await logActivity(ctx, authz, zone.id, action, object, { changes: { required: { from, to } } }, tx);
  });
}

/** `GET /api/orgs/{id}/security` (TFA.read). */
export async function getZoneSecurity(ctx: AppContext, authz: Authz, zoneId: number): Promise<ZoneSecurity> {
  const zone = await requireZone(ctx, authz, zoneId, 'TFA', 'read');
  return zoneSecurityOf(ctx, zone);
}

/** `PUT /api/orgs/{id}/require-mfa` (TFA.modify): the zone's users enrol at their next sign-in. */
export async function setZoneMfaRequirement(
  ctx: AppContext,
  authz: Authz,
  zoneId: number,
  enabled: boolean,
): Promise<ZoneSecurity> {
  const zone = await requireZone(ctx, authz, zoneId, 'TFA', 'modify');
  // Turning a requirement off is always allowed, so a zone that left the plan can undo it.
  if (enabled) requireFeature(ctx, zone, 'mfa_enforcement');
  const before = await zoneSecurityOf(ctx, zone);
  await recordZoneRequirement(ctx, authz, zone, 'zone.require_mfa', before.require_mfa, enabled, (tx) =>
    setZoneRequireMfa(tx, zone.id, enabled),
  );
  return { ...before, require_mfa: enabled };
}

/**
 * `PUT /api/orgs/{id}/require-sso` (Saml.manage): the zone's `saml.enabled`, read by the SAML
 * sign-in. Turning it on needs a SAML connection on the account.
 * @throws AppError 409 `mfa.sso_unavailable`.
 */
export async function setZoneSsoRequirement(
  ctx: AppContext,
  authz: Authz,
  zoneId: number,
  enabled: boolean,
): Promise<ZoneSecurity> {
  const zone = await requireZone(ctx, authz, zoneId, 'Saml', 'manage');
  if (enabled) requireFeature(ctx, zone, 'sso');
  const before = await zoneSecurityOf(ctx, zone);
  if (enabled && !before.sso_available) throw new AppError('mfa.sso_unavailable');
  await recordZoneRequirement(ctx, authz, zone, 'zone.require_sso', before.require_sso, enabled, (tx) =>
    setZoneSamlEnabled(tx, zone.id, enabled),
  );
  return { ...before, require_sso: enabled };
}

/** `GET /api/accounts/{accountId}/require-mfa` (Account.read). */
export async function getAccountMfaRequirement(ctx: AppContext, authz: Authz, accountId: number): Promise<AccountMfa> {
  requireAccount(authz, accountId, 'Account', 'read');
  const value = await findAccountRequireMfa(ctx.db, accountId);
  if (value === undefined) throw notFound();
  return { require_mfa: value };
}

/** `PUT /api/accounts/{accountId}/require-mfa` (Account.modify): every user of the account enrols at their next sign-in. */
export async function setAccountMfaRequirement(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  enabled: boolean,
): Promise<AccountMfa> {
  requireAccount(authz, accountId, 'Account', 'modify');
  if (enabled) await requireAccountFeature(ctx, accountId, 'mfa_enforcement');
  const before = await findAccountRequireMfa(ctx.db, accountId);
  if (before === undefined) throw notFound();
  if (before !== enabled) {
    await ctx.db.transaction(async (tx) => {
      await setAccountRequireMfa(tx, accountId, enabled);
      const changes = { required: { from: before, to: enabled } };
      await logAccountActivity(
        ctx,
        authz,
        accountId,
        'account.require_mfa',
        { type: 'account', id: accountId },
        { changes },
        tx,
      );
    });
  }
  return { require_mfa: enabled };
}
