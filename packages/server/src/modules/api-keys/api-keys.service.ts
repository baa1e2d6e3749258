import { randomBytes } from 'node:crypto';
import { ONE_DAY_MS, ONE_MINUTE_MS } from '@patchwell/core/constants';
import { TEXTS } from '@patchwell/core/texts';
import { canEnterZone, type Actor } from '@patchwell/core/zones/authz';
import type { ApiKey, CreateApiKeyBody, CreatedApiKey } from '@patchwell/core/users/api-keys.schema';
import type { AppContext } from '../../context';
import { logAccountActivity, logActivity, type ActivityObject } from '../activity/activity.service';
import { notFound, AppError, validationError } from '../../domain/errors';
import { ERROR_CATALOGUE } from '@patchwell/core/shell/error-catalogue';
import type { Authz } from '../../domain/authz';
import { findZone } from '../zones/zones.store';
import { requireAccountFeature, requireFeature } from '../zones/entitlements.service';
import {
  findKeyForAuth,
  findUserKey,
  insertKey,
  listUserKeys,
  revokeKey,
  touchKey,
  type ApiKeyRow,
} from './api-keys.store';
import { sha256Hex } from '../../domain/sha256';

export const API_KEY_PREFIX = 'pw_';
const KEY_CHARS = 40;
/** Characters of the key kept in clear (`prefix`) so people can tell keys apart. */
const SHOWN_CHARS = 10;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** `last_used_at` is written at most this often per key. */
const TOUCH_INTERVAL_MS = ONE_MINUTE_MS;

/** `pw_` and 40 base62 characters (~238 bits), drawn without modulo bias. */
export function generateApiKey(): string {
  let out = '';
  while (out.length < KEY_CHARS) {
    for (const byte of randomBytes(KEY_CHARS)) {
      if (byte < 248 && out.length < KEY_CHARS) out += BASE62[byte % 62];
    }
  }
  return API_KEY_PREFIX + out;
}

function hashKey(key: string): string {
  return sha256Hex(key);
}

function invalidKey(): AppError {
  return new AppError('auth.invalid_api_key');
}

/**
 * Authenticates `Authorization: Bearer <key>`: the key exists, is neither revoked nor
 * expired, and its owner is active and not locked. The actor is the owner with the roles
 * they hold now, narrowed to the key's zone; a key for every zone (`organization_id`
 * null) works only while its owner is still a global administrator. Nothing is cached,
 * so a revocation, a lost role or a disabled owner applies to the very next request.
 * @throws AppError 401 `auth.invalid_api_key`; 403 `plans.feature_unavailable` when the plan
 *   governing the key (its zone's, or the account's) no longer includes API access.
 */
export async function authenticateApiKey(
  ctx: AppContext,
  key: string,
): Promise<{ actor: Actor; userId: number; keyId: number }> {
  if (!key.startsWith(API_KEY_PREFIX)) throw invalidKey();
  const found = await findKeyForAuth(ctx.db, hashKey(key));
  const now = ctx.clock.now();
  if (!found || found.key.revokedAt || (found.key.expiresAt && found.key.expiresAt <= now)) throw invalidKey();
  const { owner } = found;
  if (owner.status !== 'active' || owner.locked) throw invalidKey();
  const isGlobalAdmin = owner.accountRbacRole === 'global-admin';
  if (found.key.organizationId === null && !isGlobalAdmin) throw invalidKey();
  // A key keeps existing when its zone leaves the plan, but works again only after an upgrade.
  if (!found.plan) throw invalidKey();
  requireFeature(ctx, found.plan, 'api_access');

  const lastUsed = found.key.lastUsedAt;
  if (!lastUsed || now.getTime() - lastUsed.getTime() >= TOUCH_INTERVAL_MS) await touchKey(ctx.db, found.key.id, now);
  return {
    userId: owner.id,
    keyId: found.key.id,
    actor: {
      accountId: owner.accountId,
      isGlobalAdmin,
      zoneRoles: found.roles,
      onlyZoneId: found.key.organizationId,
    },
  };
}

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    zone_id: row.organizationId,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

// A request made with a key bound to one zone sees and manages only that zone's keys.
function isVisible(authz: Authz, row: ApiKeyRow): boolean {
  const only = authz.actor.onlyZoneId;
  return only == null || row.organizationId === only;
}

/** The caller's own keys (never the secrets), newest first. */
export async function listApiKeys(ctx: AppContext, authz: Authz): Promise<ApiKey[]> {
  authz.allow('a user lists only their own API keys');
  const rows = await listUserKeys(ctx.db, authz.userId);
  return rows.filter((row) => isVisible(authz, row)).map(toApiKey);
}

/**
 * Creates a key for the caller, acting in `zone_id` (default: zone `o`) with the caller's
 * permissions there, or in every zone of the account (`zone_id: null`, global
 * administrators only). The key is returned this once; only its hash is kept.
 * @throws AppError 403 when the caller is itself an API key, 400 without a zone, 404 a zone the caller may
 * not enter, 403 `null` for a non-global administrator.
 */
export async function createApiKey(
  ctx: AppContext,
  authz: Authz,
  zoneIdOfPage: number | undefined,
  body: CreateApiKeyBody,
): Promise<CreatedApiKey> {
  if (authz.via === 'api_key') throw new AppError('api_keys.from_key');
  const { actor } = authz;
  const zoneId = body.zone_id === undefined ? (zoneIdOfPage ?? actor.onlyZoneId ?? undefined) : body.zone_id;
  if (zoneId === undefined) throw validationError({ zone_id: [TEXTS.validation.namedRequired('Zone')] });
  if (zoneId === null) {
    if (!actor.isGlobalAdmin || actor.accountId === null || actor.onlyZoneId != null) {
      throw new AppError('api_keys.all_zones', {
        fieldErrors: { zone_id: [ERROR_CATALOGUE['api_keys.all_zones'].message] },
      });
    }
    authz.allow('a global administrator creates a key for every zone of their account');
    await requireAccountFeature(ctx, actor.accountId, 'api_access');
  } else {
    const zone = await findZone(ctx.db, zoneId);
    if (!zone || !canEnterZone(actor, { id: zone.id, accountId: zone.accountId })) throw notFound();
    authz.allow('a key acts with its owner’s own permissions, in a zone the owner may enter');
    requireFeature(ctx, zone, 'api_access');
  }
  const now = ctx.clock.now();
  const key = generateApiKey();
  const row = await insertKey(ctx.db, {
    userId: authz.userId,
    organizationId: zoneId,
    name: body.name,
    prefix: key.slice(0, SHOWN_CHARS),
    keyHash: hashKey(key),
    createdAt: now,
    expiresAt: body.expires_in_days ? new Date(now.getTime() + body.expires_in_days * ONE_DAY_MS) : null,
  });
  await logKeyEvent(ctx, authz, row, 'api_key.create', {
    zone: zoneId === null ? 'all zones' : zoneId,
    expires_at: row.expiresAt?.toISOString() ?? null,
  });
  return { ...toApiKey(row), key };
}

/** A key's event: in its zone, or account-level for a key of every zone. Never the key or its hash. */
async function logKeyEvent(
  ctx: AppContext,
  authz: Authz,
  row: ApiKeyRow,
  action: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  const object: ActivityObject = { type: 'api_key', id: row.id, name: row.name };
  if (row.organizationId !== null) {
    await logActivity(ctx, authz, row.organizationId, action, object, details);
  } else if (authz.actor.accountId !== null) {
    await logAccountActivity(ctx, authz, authz.actor.accountId, action, object, details);
  }
}

/**
 * Revokes one of the caller's keys; it is refused from the next request on.
 * @throws AppError 404 when the key is not one of the caller's (or already revoked).
 */
export async function revokeApiKey(ctx: AppContext, authz: Authz, id: number): Promise<void> {
  const row = await findUserKey(ctx.db, authz.userId, id);
  if (!row || !isVisible(authz, row)) throw notFound();
  authz.allow('a user revokes their own API key');
  await revokeKey(ctx.db, row.id, ctx.clock.now());
  await logKeyEvent(ctx, authz, row, 'api_key.revoke');
}
