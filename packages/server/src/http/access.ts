import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUTH_ERRORS } from '@patchwell/core/auth/auth-errors';
import type { AppContext } from '../context';
import { readSessionToken } from '../modules/auth/cookie';
import { resolveSession, type SessionUser } from '../modules/auth/sessions.service';
import { AppError } from './errors';
import { assertSameOrigin } from './same-origin';

/**
 * Who may call a route. Every /api and /bespoke route declares it in `config.access`; a
 * route without it fails at start-up, so no route is public by accident.
 * - `public`: anyone.
 * - `session`: a valid session cookie; the handler finds the user in `request.user`.
 */
export type Access = 'public' | 'session';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** `GET /api/users/self` only: an `Authorization: Basic` header signs in instead of needing a session. */
    basicSignIn?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user on `session` routes; null elsewhere. */
    user: SessionUser | null;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function isGuardedPath(url: string): boolean {
  return (url.startsWith('/api/') || url.startsWith('/bespoke/')) && !url.startsWith('/api/docs');
}

/** The user of a `session` route (set by the access hook). */
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError(AUTH_ERRORS.unauthenticated.code, 401, AUTH_ERRORS.unauthenticated.message);
  return request.user;
}

/**
 * Registers the access rules: the start-up check that routes declare access, the
 * cross-site check for state-changing requests that a browser's cookie authenticates,
 * and session validation for `session` routes.
 */
export function registerAccess(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('user', null);

  app.addHook('onRoute', (route) => {
    if (!isGuardedPath(route.url)) return;
    const access = route.config?.access;
    if (access !== 'public' && access !== 'session') {
      throw new Error(`Route ${String(route.method)} ${route.url} must declare config.access ('public' or 'session').`);
    }
  });

  app.addHook('onRequest', async (request) => {
    // A request authenticated only by an Authorization header cannot be forged by another
    // site (browsers do not attach it cross-site); one with our cookie, or one that may
    // set it (sign-up), can.
    const hasCookie = readSessionToken(request, ctx.config) !== undefined;
    if (UNSAFE_METHODS.has(request.method) && (hasCookie || !request.headers.authorization)) {
      assertSameOrigin(request, ctx.config);
    }

    const config = request.routeOptions.config;
    if (config?.access !== 'session') return;
    if (config.basicSignIn && /^basic(\s|$)/i.test(request.headers.authorization ?? '')) return;
    const token = readSessionToken(request, ctx.config);
    if (!token) throw new AppError(AUTH_ERRORS.unauthenticated.code, 401, AUTH_ERRORS.unauthenticated.message);
    request.user = await resolveSession(ctx, token);
  });
}
