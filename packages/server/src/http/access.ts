import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { AppContext } from '../context';
import { readSessionToken } from '../modules/auth/cookie';
import { resolveSession, type SessionUser } from '../modules/auth/sessions.service';
import { authenticateApiKey } from '../modules/api-keys/api-keys.service';
import { createAuthz } from '../domain/authz';
import { AppError } from '../domain/errors';
import { assertSameOrigin } from './same-origin';
// The request's `authz` and `authzSkipped` fields are declared there.
import type {} from './authz';

/**
 * Who may call a route. Every /api and /bespoke route declares it in `config.access`; a
 * route without it fails at start-up, so no route is public by accident.
 * - `public`: anyone.
 * - `session`: a valid session cookie, or a personal API key (`Authorization: Bearer pw_…`).
 *   The handler finds the authorization in `request.authz` (both ways; services take it and
 *   decide first) and the session's user in `request.user` (sessions only: null for keys,
 *   so nothing that needs a person at a browser, such as changing a password, works with a key).
 */
export type Access = 'public' | 'session';

/** A route under /api or /bespoke as registered: what it declares and its schema. */
export type GuardedRoute = {
  method: string;
  url: string;
  access: Access;
  schema: FastifySchema | undefined;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api and /bespoke route with its access, in registration order (the route matrix test walks them). */
    readonly guardedRoutes: readonly GuardedRoute[];
  }
  interface FastifyContextConfig {
    access?: Access;
    /** `GET /api/users/self` only: an `Authorization: Basic` header signs in instead of needing a session. */
    basicSignIn?: boolean;
    /**
     * A POST other sites send by design (the SAML ACS, posted by the IdP's page). Its proof is
     * in the body (a signed response to a request we issued), never in a cookie.
     */
    crossSitePost?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user on `session` routes reached with a session cookie; null elsewhere (and for API keys). */
    user: SessionUser | null;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function isGuardedPath(url: string): boolean {
  return (url.startsWith('/api/') || url.startsWith('/bespoke/')) && !url.startsWith('/api/docs');
}

/** The `Authorization: Bearer` token, if the request carries one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/** The user of a `session` route reached with a session cookie (set by the access hook). */
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('auth.unauthenticated');
  return request.user;
}

/**
 * Registers the access rules: the start-up check that routes declare access, the
 * cross-site check for state-changing requests that a browser's cookie authenticates,
 * and session validation for `session` routes.
 */
export function registerAccess(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('user', null);
  const guardedRoutes: GuardedRoute[] = [];
  app.decorate('guardedRoutes', guardedRoutes);

  app.addHook('onRoute', (route) => {
    if (!isGuardedPath(route.url)) return;
    const access = route.config?.access;
    if (access !== 'public' && access !== 'session') {
      throw new Error(`Route ${String(route.method)} ${route.url} must declare config.access ('public' or 'session').`);
    }
    for (const method of [route.method].flat()) {
      guardedRoutes.push({ method, url: route.url, access, schema: route.schema });
    }
  });

  app.addHook('onRequest', async (request) => {
    // A request authenticated only by an Authorization header cannot be forged by another
    // site (browsers do not attach it cross-site); one with our cookie, or one that may
    // set it (sign-up), can. Browsers may replay cached Basic credentials, never a Bearer
    // token, and a request with a Bearer token is never authenticated by its cookie.
    const bearer = bearerToken(request);
    const token = readSessionToken(request, ctx.config);
    if (
      UNSAFE_METHODS.has(request.method) &&
      bearer === undefined &&
      request.routeOptions.config?.crossSitePost !== true &&
      (token !== undefined || !request.headers.authorization)
    ) {
      assertSameOrigin(request, ctx.config);
    }

    const config = request.routeOptions.config;
    if (config?.access !== 'session') return;
    if (bearer !== undefined) {
      const key = await authenticateApiKey(ctx, bearer);
      request.authz = createAuthz(key.actor, key.userId, 'api_key', { apiKeyId: key.keyId, clientAddress: request.ip });
      return;
    }
    if (config.basicSignIn && /^basic(\s|$)/i.test(request.headers.authorization ?? '')) return;
    if (!token) throw new AppError('auth.unauthenticated');
    const user = await resolveSession(ctx, token);
    request.user = user;
    // Read from the database on this request: a changed role or account role applies at once.
    request.authz = createAuthz(
      { accountId: user.accountId, isGlobalAdmin: user.isGlobalAdmin, zoneRoles: user.zoneRoles },
      user.id,
      'session',
      { clientAddress: request.ip },
    );
  });
}
