import type { SessionSettings } from '@patchwell/core/shell/session-settings.schema';
import { SESSION_IDLE_DEFAULT_MINUTES, SESSION_LIFETIME_DEFAULT_MINUTES } from '@patchwell/core/constants';
import type { AccessKey, SetPrefsBody, ZonePref } from '@patchwell/core/zones/zones.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { AppError } from '../../domain/errors';
import { changesOf, logAccountActivity, logActivity } from '../activity/activity.service';
import { decryptSecret, encryptSecret, generateAccessKey, hashAccessKey } from './access-key';
import { secretKey } from './secret-key';
import { requireAccount, requireZone } from './zone-access.service';
import {
  findAccountSessionBounds,
  findAccountZoneIds,
  findZone,
  findZoneByAccessKeyHash,
  listZonePrefs,
  setAccessKey,
  setSessionBounds,
  upsertZonePrefs,
  type SessionBounds,
  type ZoneRow,
} from './zones.store';

/** A fresh access key with its lookup hash and encrypted copy. */
export async function newAccessKey(ctx: AppContext): Promise<{ key: string; hash: string; encrypted: string }> {
  const key = generateAccessKey();
  return { key, hash: hashAccessKey(key), encrypted: encryptSecret(key, await secretKey(ctx.config)) };
}

/** The zone an agent's access key enrols into; undefined for an unknown or rotated key. */
export async function zoneOfAccessKey(ctx: AppContext, key: string): Promise<ZoneRow | undefined> {
  return findZoneByAccessKeyHash(ctx.db, hashAccessKey(key));
}

/**
 * `GET /api/orgs/{id}/access-key` (Organization.manage). A zone created before keys were
 * stored encrypted gets its key now, on first show.
 * @throws AppError 409 `zones.access_key_unreadable` when the server's secret key changed since.
 */
export async function getAccessKey(ctx: AppContext, authz: Authz, id: number): Promise<AccessKey> {
  return accessKeyOf(ctx, await requireZone(ctx, authz, id, 'Organization', 'manage'));
}

/**
 * The zone's access key, created on first use, for a caller that has already decided it may
 * see it (the route above after its permission check; the demo's simulated fleet at start-up).
 * @throws AppError 409 `zones.access_key_unreadable` when the server's secret key changed since.
 */
export async function accessKeyOf(ctx: AppContext, zone: ZoneRow): Promise<AccessKey> {
  const id = zone.id;
  if (zone.accessKeyEncrypted) {
    const key = decryptSecret(zone.accessKeyEncrypted, await secretKey(ctx.config));
    if (key === undefined) {
      ctx.logger.warn({ zoneId: id }, 'access key unreadable: PATCHWELL_SECRET_KEY or DATA_DIR/secret.key changed');
      throw new AppError('zones.access_key_unreadable');
    }
    return { access_key: key };
  }
  const fresh = await newAccessKey(ctx);
  if (await setAccessKey(ctx.db, id, fresh, { onlyIfMissing: true })) return { access_key: fresh.key };
  // Another request gave the zone its first key meanwhile: show that one.
  const stored = await findZone(ctx.db, id);
  const key = stored?.accessKeyEncrypted && decryptSecret(stored.accessKeyEncrypted, await secretKey(ctx.config));
  if (!key) throw new AppError('zones.access_key_unreadable');
  return { access_key: key };
}

/** `POST /api/orgs/{id}/access-key/rotate` (Organization.manage): the previous key stops enrolling at once. */
export async function rotateAccessKey(ctx: AppContext, authz: Authz, id: number): Promise<AccessKey> {
  const zone = await requireZone(ctx, authz, id, 'Organization', 'manage');
  const fresh = await newAccessKey(ctx);
  await setAccessKey(ctx.db, id, fresh);
  // The key itself never goes into the log.
  await logActivity(ctx, authz, id, 'zone.access_key_rotate', { type: 'zone', id, name: zone.name });
  ctx.logger.info({ zoneId: id, userId: authz.userId }, 'zone access key rotated');
  return { access_key: fresh.key };
}

function toSettings(bounds: SessionBounds): SessionSettings {
  return { max_lifetime_minutes: bounds.maxLifetimeMinutes, idle_timeout_minutes: bounds.idleTimeoutMinutes };
}

function toBounds(settings: SessionSettings): SessionBounds {
  return { maxLifetimeMinutes: settings.max_lifetime_minutes, idleTimeoutMinutes: settings.idle_timeout_minutes };
}

/** `GET /api/orgs/{id}/session-settings` (Organization.manage). */
export async function getZoneSessionSettings(ctx: AppContext, authz: Authz, id: number): Promise<SessionSettings> {
  const zone = await requireZone(ctx, authz, id, 'Organization', 'manage');
  return toSettings({
    maxLifetimeMinutes: zone.sessionMaxLifetimeMinutes,
    idleTimeoutMinutes: zone.sessionIdleTimeoutMinutes,
  });
}

/** `PUT /api/orgs/{id}/session-settings` (Organization.manage): live sessions get the new bounds at once. */
export async function setZoneSessionSettings(
  ctx: AppContext,
  authz: Authz,
  id: number,
  settings: SessionSettings,
): Promise<SessionSettings> {
  const zone = await requireZone(ctx, authz, id, 'Organization', 'manage');
  await setSessionBounds(ctx.db, zone.accountId, [zone.id], toBounds(settings));
  const before = toSettings({
    maxLifetimeMinutes: zone.sessionMaxLifetimeMinutes,
    idleTimeoutMinutes: zone.sessionIdleTimeoutMinutes,
  });
  await logActivity(
    ctx,
    authz,
    zone.id,
    'zone.session_settings',
    { type: 'zone', id: zone.id, name: zone.name },
    {
      changes: changesOf(before, settings),
    },
  );
  ctx.logger.info({ zoneId: id, userId: authz.userId, ...settings }, 'zone session settings changed');
  return settings;
}

/**
 * `GET /api/accounts/{accountId}/session-settings`: the bounds that apply across the
 * account (the strictest of its zones; the defaults when it has none).
 */
export async function getAccountSessionSettings(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
): Promise<SessionSettings> {
  requireAccount(authz, accountId, 'Account', 'read');
  const bounds = await findAccountSessionBounds(ctx.db, accountId);
  return toSettings(
    bounds ?? {
      maxLifetimeMinutes: SESSION_LIFETIME_DEFAULT_MINUTES,
      idleTimeoutMinutes: SESSION_IDLE_DEFAULT_MINUTES,
    },
  );
}

/** `PUT /api/accounts/{accountId}/session-settings`: sets every zone of the account. */
export async function setAccountSessionSettings(
  ctx: AppContext,
  authz: Authz,
  accountId: number,
  settings: SessionSettings,
): Promise<SessionSettings> {
  requireAccount(authz, accountId, 'Account', 'modify');
  const zoneIds = await findAccountZoneIds(ctx.db, accountId);
  await setSessionBounds(ctx.db, accountId, zoneIds, toBounds(settings));
  await logAccountActivity(
    ctx,
    authz,
    accountId,
    'account.session_settings',
    { type: 'account', id: accountId },
    {
      ...settings,
      zones: zoneIds.length,
    },
  );
  ctx.logger.info({ accountId, userId: authz.userId, ...settings }, 'account session settings changed');
  return settings;
}

/** `GET /api/orgs/self/prefs?o=` (Organization.read). */
export async function getZonePrefs(ctx: AppContext, authz: Authz, zoneId: number | undefined): Promise<ZonePref[]> {
  const zone = await requireZone(ctx, authz, zoneId, 'Organization', 'read');
  return listZonePrefs(ctx.db, zone.id);
}

/** `POST /api/orgs/self/prefs?o=` (Organization.manage): creates or overwrites each preference; returns them all. */
export async function setZonePrefs(
  ctx: AppContext,
  authz: Authz,
  zoneId: number | undefined,
  body: SetPrefsBody,
): Promise<ZonePref[]> {
  const zone = await requireZone(ctx, authz, zoneId, 'Organization', 'manage');
  const before = Object.fromEntries((await listZonePrefs(ctx.db, zone.id)).map((p) => [p.pref_name, p.value]));
  await upsertZonePrefs(ctx.db, zone.id, body.prefs);
  const after = Object.fromEntries(body.prefs.map((p) => [p.pref_name, p.value]));
  const changes = changesOf(before, after);
  if (Object.keys(changes).length) {
    await logActivity(ctx, authz, zone.id, 'zone.prefs', { type: 'zone', id: zone.id, name: zone.name }, { changes });
  }
  return listZonePrefs(ctx.db, zone.id);
}
