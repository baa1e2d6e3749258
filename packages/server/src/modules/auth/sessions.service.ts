import { randomBytes } from 'node:crypto';
import {
  ONE_MINUTE_MS,
  SESSION_IDLE_DEFAULT_MINUTES,
  SESSION_LIFETIME_DEFAULT_MINUTES,
} from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { createNotifiedCache, type NotifiedCache } from '../../db/notified-cache';
import { AppError } from '../../domain/errors';
import { logAccountActivity } from '../activity/activity.service';
import {
  deleteSession,
  findSession,
  findZoneAccess,
  insertSession,
  touchSession,
  type ZoneAccess,
} from './sessions.store';
import { sha256Hex } from '../../domain/sha256';

/** The signed-in user as routes and services see it (`request.user`). */
export type SessionUser = {
  id: number;
  accountId: number | null;
  isGlobalAdmin: boolean;
  /** Explicit role per zone; a global administrator may have none and still reach every zone of the account. */
  zoneRoles: { organizationId: number; roleId: number }[];
  session: {
    /** sha256 of the cookie token. */
    id: string;
    /** When the session ends unless used again (earlier of the idle and absolute bounds). */
    expiresAt: Date;
    idleTimeoutMinutes: number;
  };
};

/** Touch `last_seen_at` at most this often: one write a minute per session, not one per request. */
const TOUCH_INTERVAL_MS = ONE_MINUTE_MS;

type FoundSession = NonNullable<Awaited<ReturnType<typeof findSession>>>;

/**
 * Sessions this node validated, by id, so that a request costs no query (decision 0020).
 * Only an active user's valid session is kept; the change feed drops it when the session
 * ends anywhere (sign-out, sweep, password change), when its user changes (status, account
 * role, zone roles) and when any zone's or account's settings change, before the write that
 * ended it returns on this node, within milliseconds on others. The lifetime bounds
 * anything the triggers could not see.
 */
const SESSION_CACHE_TTL_MS = 30_000;
const SESSION_CACHE_MAX = 20_000;
const sessionCaches = new WeakMap<Db, NotifiedCache<FoundSession>>();

function sessionCacheOf(db: Db): NotifiedCache<FoundSession> {
  let cache = sessionCaches.get(db);
  if (!cache) {
    cache = createNotifiedCache<FoundSession>(db, { ttlMs: SESSION_CACHE_TTL_MS, max: SESSION_CACHE_MAX });
    sessionCaches.set(db, cache);
  }
  return cache;
}

/** The stored id of a token. Only the hash is stored, so a database leak yields no usable cookie. */
export function sessionIdOf(token: string): string {
  return sha256Hex(token);
}

function boundsOf(access: ZoneAccess) {
  return {
    maxLifetimeMinutes: access.maxLifetimeMinutes ?? SESSION_LIFETIME_DEFAULT_MINUTES,
    idleTimeoutMinutes: access.idleTimeoutMinutes ?? SESSION_IDLE_DEFAULT_MINUTES,
  };
}

function expiryOf(createdAt: Date, lastSeenAt: Date, bounds: ReturnType<typeof boundsOf>): Date {
  const absolute = createdAt.getTime() + bounds.maxLifetimeMinutes * ONE_MINUTE_MS;
  const idle = lastSeenAt.getTime() + bounds.idleTimeoutMinutes * ONE_MINUTE_MS;
  return new Date(Math.min(absolute, idle));
}

/**
 * Starts a session for a user who just proved who they are. Always a fresh random id
 * (never the one the browser brought), so a planted cookie cannot become a signed-in one.
 * Returns the raw token for the cookie (only its hash is stored) and the signed-in user.
 */
export async function createSession(
  ctx: AppContext,
  user: { id: number; accountId: number | null; isGlobalAdmin: boolean },
  meta: { ip: string | undefined; userAgent: string | undefined },
): Promise<{ token: string; user: SessionUser }> {
  const now = ctx.clock.now();
  const token = randomBytes(32).toString('base64url');
  const id = sessionIdOf(token);
  const access = await findZoneAccess(ctx.db, user.id);
  const bounds = boundsOf(access);
  const expiresAt = expiryOf(now, now, bounds);
  await insertSession(ctx.db, {
    id,
    userId: user.id,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    ip: meta.ip?.slice(0, 64),
    userAgent: meta.userAgent?.slice(0, 512),
  });
  return {
    token,
    user: {
      id: user.id,
      accountId: user.accountId,
      isGlobalAdmin: user.isGlobalAdmin,
      zoneRoles: access.roles,
      session: { id, expiresAt, idleTimeoutMinutes: bounds.idleTimeoutMinutes },
    },
  };
}

/**
 * Validates a session token and returns its user, with one query (plus a write at most once
 * a minute). The bounds are the strictest among the user's zones, read now, so a changed
 * zone setting applies on the next request.
 * @throws AppError 401 `auth.session_expired` for an unknown, expired or disabled user's session (and deletes it).
 */
export async function resolveSession(ctx: AppContext, token: string): Promise<SessionUser> {
  const id = sessionIdOf(token);
  const cache = sessionCacheOf(ctx.db);
  const since = cache.version();
  const cached = cache.get(id);
  const found = cached ?? (await findSession(ctx.db, id));
  const expired = () => new AppError('auth.session_expired');
  if (!found) throw expired();
  if (found.user.status !== 'active') {
    await deleteSession(ctx.db, id);
    throw expired();
  }
  const isGlobalAdmin = found.user.accountRbacRole === 'global-admin';
  const { access } = found;
  const bounds = boundsOf(access);
  const now = ctx.clock.now();
  const { createdAt, lastSeenAt } = found.session;
  if (now.getTime() >= expiryOf(createdAt, lastSeenAt, bounds).getTime()) {
    // Another node may have seen the session since this one kept it: the database decides.
    if (cached) {
      cache.delete(id);
      return resolveSession(ctx, token);
    }
    await deleteSession(ctx.db, id);
    throw expired();
  }
  let seen = lastSeenAt;
  if (now.getTime() - lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    seen = now;
    const touched = await touchSession(ctx.db, id, now, expiryOf(createdAt, now, bounds));
    if (!touched) {
      // Ended meanwhile (the sweep, or a sign-out on another node whose notice is on its way).
      cache.delete(id);
      throw expired();
    }
    // Kept or about to be: the next touch is due a minute from now.
    found.session = { createdAt, lastSeenAt: now };
  }
  if (!cached) cache.set(id, [`u:${found.user.id}`], found, since);
  return {
    id: found.user.id,
    accountId: found.user.accountId,
    isGlobalAdmin,
    zoneRoles: access.roles,
    session: { id, expiresAt: expiryOf(createdAt, seen, bounds), idleTimeoutMinutes: bounds.idleTimeoutMinutes },
  };
}

/** Ends the session of `token`, if it exists. */
export async function destroySession(ctx: AppContext, token: string): Promise<void> {
  const id = sessionIdOf(token);
  await deleteSession(ctx.db, id);
  sessionCacheOf(ctx.db).delete(id);
}

/** Signs out: ends the session the cookie names and logs `auth.signout` for its user. */
export async function signOut(ctx: AppContext, token: string, clientAddress: string): Promise<void> {
  const id = sessionIdOf(token);
  const ended = await deleteSession(ctx.db, id);
  // The trigger's notice drops it too; this says so without depending on it.
  sessionCacheOf(ctx.db).delete(id);
  if (!ended?.accountId) return;
  await logAccountActivity(
    ctx,
    { userId: ended.userId, via: 'session', clientAddress },
    ended.accountId,
    'auth.signout',
    { type: 'user', id: ended.userId, name: ended.email },
  );
}
