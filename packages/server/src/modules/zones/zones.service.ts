import { TEXTS } from '@patchwell/core/texts';
import { newZoneStartsDisabled } from '@patchwell/core/rules/tiers';
import { canEnterZone, roleNameIn, type Actor } from '@patchwell/core/zones/authz';
import type { CreateAccountZoneBody, CreateZoneBody, UpdateZoneBody, Zone } from '@patchwell/core/zones/zones.schema';
import type { ZoneUser } from '@patchwell/core/users/users.schema';
import { roleById } from '@patchwell/core/zones/roles';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import type { AppError } from '../../domain/errors';
import { appError, notFound, validationError } from '../../domain/errors';
import type { Authz } from '../../domain/authz';
import { changesOf, logActivity } from '../activity/activity.service';
import { newAccessKey } from './zone-settings.service';
import { isTrialExpired, requireFeature, tierSubject } from './entitlements.service';
import { requireAccount, requireAccountZone, requireZone } from './zone-access.service';
import {
  countAccountZones,
  findTopLevelZone,
  findZone,
  findZoneWithCount,
  findZonesWithCount,
  insertZone,
  insertZoneRole,
  listZoneMembers,
  updateZone,
  type ZoneRow,
  type ZoneWithCount,
} from './zones.store';

/** Role id 1: the creator of a zone becomes its Zone Administrator. */
const ZONE_ADMIN_ROLE_ID = 1;

function nameTaken(): AppError {
  return appError('zones.name_taken', { fieldErrors: { name: [TEXTS.zones.nameTaken] } });
}

function toZone(row: ZoneWithCount, actor: Actor, now: Date): Zone {
  return {
    id: row.id,
    zone_id: row.uuid,
    name: row.name,
    parent_id: row.parentId,
    plan: row.plan,
    trial_end_time: row.trialEndTime?.toISOString() ?? null,
    trial_expired: isTrialExpired(row, now),
    disabled: row.disabled,
    create_time: row.createdAt.toISOString(),
    user_count: row.userCount,
    role_name: roleNameIn(actor, { id: row.id, accountId: row.accountId }),
  };
}

async function zoneAnswer(ctx: AppContext, actor: Actor, id: number): Promise<Zone> {
  const row = await findZoneWithCount(ctx.db, id);
  if (!row) throw notFound();
  return toZone(row, actor, ctx.clock.now());
}

/** The zones the caller may enter (`GET /api/orgs`), sorted by name. */
export async function listZones(ctx: AppContext, authz: Authz): Promise<Zone[]> {
  const { actor } = authz;
  authz.allow('the list holds only the zones the caller may enter');
  const rows = await findZonesWithCount(ctx.db, {
    accountId: actor.isGlobalAdmin ? actor.accountId : null,
    ids: actor.zoneRoles.map((r) => r.organizationId),
  });
  const now = ctx.clock.now();
  return rows
    .filter((z) => canEnterZone(actor, { id: z.id, accountId: z.accountId }))
    .map((z) => toZone(z, actor, now));
}

/** One zone (`GET /api/orgs/{id}`): Organization.read in it. */
export async function getZone(ctx: AppContext, authz: Authz, id: number): Promise<Zone> {
  await requireZone(ctx, authz, id, 'Organization', 'read');
  return zoneAnswer(ctx, authz.actor, id);
}

/**
 * Creates a zone under `parent`: the tier rule first (Complete plan or an unexpired
 * trial), then the zone with its plan, trial and a fresh access key; trial zones beyond
 * the first start disabled. The creator becomes its Zone Administrator unless they are
 * the account's global administrator (who reaches every zone anyway).
 */
async function createZoneUnder(ctx: AppContext, authz: Authz, parent: ZoneRow, name: string): Promise<Zone> {
  const now = ctx.clock.now();
  const parentTier = tierSubject(parent, now);
  requireFeature(ctx, parent, 'create_zone');
  const existing = await countAccountZones(ctx.db, parent.accountId);
  const key = await newAccessKey(ctx);
  const { actor } = authz;
  const isGlobalAdmin = actor.isGlobalAdmin && actor.accountId === parent.accountId;
  let zone: ZoneRow;
  try {
    zone = await ctx.db.transaction(async (tx) => {
      const created = await insertZone(tx, {
        accountId: parent.accountId,
        parentId: parent.id,
        name,
        plan: parent.plan,
        trialEndTime: parent.trialEndTime,
        disabled: newZoneStartsDisabled(parentTier, existing, now.getTime()),
        accessKeyHash: key.hash,
        accessKeyEncrypted: key.encrypted,
        sessionMaxLifetimeMinutes: parent.sessionMaxLifetimeMinutes,
        sessionIdleTimeoutMinutes: parent.sessionIdleTimeoutMinutes,
        createdAt: now,
      });
      if (!isGlobalAdmin) {
        await insertZoneRole(tx, { userId: authz.userId, organizationId: created.id, roleId: ZONE_ADMIN_ROLE_ID });
      }
      const object = { type: 'zone', id: created.id, name: created.name };
      const facts = { parent: parent.name, plan: created.plan, disabled: created.disabled };
      await logActivity(ctx, authz, created.id, 'zone.create', object, facts, tx);
      return created;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'organizations_account_name_unique')) throw nameTaken();
    throw err;
  }
  ctx.logger.info({ zoneId: zone.id, accountId: zone.accountId, userId: authz.userId }, 'zone created');
  const creator: Actor = isGlobalAdmin
    ? actor
    : { ...actor, zoneRoles: [...actor.zoneRoles, { organizationId: zone.id, roleId: ZONE_ADMIN_ROLE_ID }] };
  return toZone({ ...zone, userCount: isGlobalAdmin ? 0 : 1 }, creator, now);
}

/**
 * `POST /api/orgs?o=` (the creation dialog): Organization.create in zone `o`; the new zone's
 * parent is `o`'s parent, or `o` itself when it is top-level.
 * @throws AppError 403 `zones.tier_required`, 409 `zones.name_taken`.
 */
export async function createZone(
  ctx: AppContext,
  authz: Authz,
  zoneIdOfPage: number | undefined,
  body: CreateZoneBody,
): Promise<Zone> {
  const page = await requireZone(ctx, authz, zoneIdOfPage, 'Organization', 'create');
  const parent = page.parentId === null ? page : ((await findZone(ctx.db, page.parentId)) ?? page);
  return createZoneUnder(ctx, authz, parent, body.name);
}

async function renameZone(ctx: AppContext, authz: Authz, zone: ZoneRow, name: string): Promise<Zone> {
  try {
    await updateZone(ctx.db, zone.id, { name });
  } catch (err) {
    if (isUniqueViolation(err, 'organizations_account_name_unique')) throw nameTaken();
    throw err;
  }
  const changes = changesOf(zone, { name });
  await logActivity(ctx, authz, zone.id, 'zone.update', { type: 'zone', id: zone.id, name }, { changes });
  return zoneAnswer(ctx, authz.actor, zone.id);
}

/** `PUT /api/orgs/{id}`: Organization.manage in the zone. @throws AppError 409 `zones.name_taken`. */
export async function updateZoneById(ctx: AppContext, authz: Authz, id: number, body: UpdateZoneBody): Promise<Zone> {
  const zone = await requireZone(ctx, authz, id, 'Organization', 'manage');
  return renameZone(ctx, authz, zone, body.name);
}

/** Disables or enables a zone: an account-level decision, so the global administrator's (Account.modify). */
export async function setZoneDisabled(ctx: AppContext, authz: Authz, id: number, disabled: boolean): Promise<Zone> {
  const zone = await requireZone(ctx, authz, id, 'Account', 'modify');
  await updateZone(ctx.db, id, { disabled });
  const object = { type: 'zone', id, name: zone.name };
  await logActivity(ctx, authz, id, disabled ? 'zone.disable' : 'zone.enable', object, {
    changes: changesOf(zone, { disabled }),
  });
  ctx.logger.info({ zoneId: id, userId: authz.userId, disabled }, disabled ? 'zone disabled' : 'zone enabled');
  return zoneAnswer(ctx, authz.actor, id);
}

/** Every zone of the account, for its global administrator (`GET /api/accounts/{accountId}/zones`). */
export async function listAccountZones(ctx: AppContext, authz: Authz, accountId: number): Promise<Zone[]> {
  requireAccount(authz, accountId, 'Organization', 'read');
  const rows = await findZonesWithCount(ctx.db, { accountId, ids: [] });
  const now = ctx.clock.now();
  return rows.map((z) => toZone(z, authz.actor, now));
}

/**
 * `POST /api/accounts/{accountId}/zones`: a zone under `parent_id` (a zone of the account;
 * a child zone stands for its own parent) or under the account's top-level organisation.
 * @throws AppError 404 parent of another account, 403 `zones.tier_required`, 409 `zones.name_taken`.
 */
export async function createAccountZone(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  body: CreateAccountZoneBody,
): Promise<Zone> {
  requireAccount(authz, accountId, 'Organization', 'create');
  let parent: ZoneRow | undefined;
  if (body.parent_id !== undefined) {
    const given = await findZone(ctx.db, body.parent_id);
    if (!given || given.accountId !== accountId) throw notFound();
    parent = given.parentId === null ? given : ((await findZone(ctx.db, given.parentId)) ?? given);
  } else {
    parent = await findTopLevelZone(ctx.db, accountId);
  }
  if (!parent) throw validationError({ parent_id: [TEXTS.validation.namedRequired('Parent organisation')] });
  return createZoneUnder(ctx, authz, parent, body.name);
}

export async function getAccountZone(ctx: AppContext, authz: Authz, accountId: number, zoneId: number): Promise<Zone> {
  await requireAccountZone(ctx, authz, accountId, zoneId, 'Organization', 'read');
  return zoneAnswer(ctx, authz.actor, zoneId);
}

export async function updateAccountZone(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  zoneId: number,
  body: UpdateZoneBody,
): Promise<Zone> {
  const zone = await requireAccountZone(ctx, authz, accountId, zoneId, 'Organization', 'manage');
  return renameZone(ctx, authz, zone, body.name);
}

/** Users holding a role in one zone of the account (`GET /api/accounts/{accountId}/zones/{zoneId}/users`). */
export async function listAccountZoneUsers(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  zoneId: number,
): Promise<ZoneUser[]> {
  await requireAccountZone(ctx, authz, accountId, zoneId, 'Users', 'read');
  const rows = await listZoneMembers(ctx.db, zoneId);
  return rows.map((u) => ({
    id: u.id,
    uuid: u.uuid,
    firstname: u.firstname,
    lastname: u.lastname,
    email: u.email,
    status: u.status,
    locked: u.locked,
    tfa_enabled: u.tfaEnabled,
    account_rbac_role: u.accountRbacRole,
    role: { id: u.roleId, name: roleById(u.roleId)?.name ?? 'Unknown role' },
    created_at: u.createdAt.toISOString(),
    last_signin_at: u.lastSigninAt?.toISOString() ?? null,
  }));
}
