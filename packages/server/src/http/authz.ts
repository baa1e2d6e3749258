import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TEXTS } from '@patchwell/core/texts';
import { can, canEnterZone, type Actor, type ZoneRef } from '@patchwell/core/zones/authz';
import type { Action, Resource } from '@patchwell/core/zones/permissions';
import { AppError } from './errors';

/**
 * The authorization decision of one request. Services receive it and call {@link Authz.require}
 * (or {@link Authz.allow} after a check of their own) before they touch data; a guarded
 * request that reaches a success response without a decision is refused with 500, so a
 * missing check cannot ship (Fleet's authzcheck middleware does the same).
 */
export type Authz = {
  readonly actor: Actor;
  /** The user the request acts for (the key's owner for API keys). */
  readonly userId: number;
  /** How the caller authenticated. */
  readonly via: 'session' | 'api_key';
  /** True once a decision was recorded. */
  readonly decided: boolean;
  /**
   * Allows `action` on `resource` in `zone`, or throws: 404 when the caller may not even
   * see the zone (another account's, or one they do not belong to), 403 when they may see
   * it but their role lacks the permission.
   */
  require(zone: ZoneRef, resource: Resource, action: Action): void;
  /** Whether the caller may; records nothing (for showing or filtering). */
  may(zone: ZoneRef, resource: Resource, action: Action): boolean;
  /** Records a decision the service made itself; `reason` says which rule allowed it. */
  allow(reason: string): void;
};

export function notFound(): AppError {
  return new AppError('not_found', 404, 'Not found.');
}

export function forbidden(): AppError {
  return new AppError('authz.forbidden', 403, TEXTS.generic.noPermission);
}

/** A fresh, undecided authorization for a request made by `actor`. */
export function createAuthz(actor: Actor, userId: number, via: Authz['via']): Authz {
  let decided = false;
  return {
    actor,
    userId,
    via,
    get decided() {
      return decided;
    },
    require(zone, resource, action) {
      decided = true;
      if (!canEnterZone(actor, zone)) throw notFound();
      if (!can(actor, zone, resource, action)) throw forbidden();
    },
    may(zone, resource, action) {
      return can(actor, zone, resource, action);
    },
    allow(reason) {
      if (!reason) throw new Error('Authz.allow needs a reason.');
      decided = true;
    },
  };
}

/**
 * Marks a request as needing no authorization decision, with the reason in the code
 * (`skipAuthorization(request, 'skipauth: every signed-in user reads the banners')`).
 * Greppable on purpose: each use is a place a reviewer should look at.
 */
export function skipAuthorization(request: FastifyRequest, reason: string): void {
  if (!reason.startsWith('skipauth: ')) throw new Error('skipAuthorization reasons start with "skipauth: ".');
  request.authzSkipped = reason;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authorization of a signed-in request (session or API key); null on public routes. */
    authz: Authz | null;
    /** Set by {@link skipAuthorization}. */
    authzSkipped: string | null;
  }
}

/** The request's authorization; throws 401 on a route that is not signed in. */
export function requireAuthz(request: FastifyRequest): Authz {
  if (!request.authz) throw new AppError('auth.unauthenticated', 401, 'You are not signed in.');
  return request.authz;
}

/**
 * Refuses any successful answer of a signed-in route that made no authorization decision.
 * Error answers (400 before the handler ran, 401, 404…) carry no data, so they pass.
 */
export function registerAuthzCheck(app: FastifyInstance): void {
  app.decorateRequest('authz', null);
  app.decorateRequest('authzSkipped', null);
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.config?.access !== 'session') return payload;
    if (reply.statusCode >= 400) return payload;
    if (request.authz?.decided || request.authzSkipped) return payload;
    request.log.error(
      { route: request.routeOptions.url, method: request.method },
      'authz.missing: a signed-in route answered without an authorization decision',
    );
    reply.code(500).type('application/json; charset=utf-8');
    return JSON.stringify({ code: 'authz.missing', message: TEXTS.generic.unexpected });
  });
}
